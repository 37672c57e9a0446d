/**
 * @module
 * Maps between the adapter's rows (field names, application values) and the
 * database's (column names, stored values), using the schema's `columnName`
 * overrides and the conversions in values.ts.
 */
import type { Row } from '../adapter.js'
import { columnName, getModel, type FieldDefinition, type Schema } from '../schema.js'
import { fieldDefinition, idField, type SqlDialect } from './dialect.js'
import { fromColumnValue, toColumnValue } from './values.js'

export interface ColumnValues {
  readonly columns: readonly string[]
  readonly values: readonly unknown[]
}

/**
 * Turns field/value pairs into column/value pairs ready to bind. Fields set
 * to `undefined` are left out; an unknown field is an error rather than a
 * silently dropped write.
 *
 * @example
 * toColumns(schema, 'user', { emailVerified: true }, 'sqlite') // { columns: ['emailVerified'], values: [1] }
 */
export function toColumns(schema: Schema, model: string, data: Row, dialect: SqlDialect): ColumnValues {
  const definition = getModel(schema, model)
  const columns: string[] = []
  const values: unknown[] = []
  for (const [field, value] of Object.entries(data)) {
    if (value === undefined) continue
    columns.push(columnName(schema, model, field))
    values.push(toColumnValue(fieldDefinition(definition, model, field), value, dialect))
  }
  return { columns, values }
}

/** One field of a model as read from a row: where its value sits and how to convert it. */
export interface FieldReader {
  readonly field: string
  readonly column: string
  readonly definition: FieldDefinition
}

/**
 * Every row read walks these lists, so they are worked out once per schema
 * and model rather than per row (field lookups and column-name overrides
 * were a measurable share of a get-session read). Schemas are immutable
 * after `mergeSchemas`, so the entries never go stale.
 */
const readers = new WeakMap<Schema, Map<string, readonly FieldReader[]>>()

/**
 * The model's fields in row order, `id` first, with their columns.
 *
 * @example
 * fieldReaders(schema, 'user').map((reader) => reader.column) // ['id', 'name', 'email', ...]
 */
export function fieldReaders(schema: Schema, model: string): readonly FieldReader[] {
  let models = readers.get(schema)
  if (!models) {
    models = new Map()
    readers.set(schema, models)
  }
  let list = models.get(model)
  if (!list) {
    const definition = getModel(schema, model)
    list = [
      { field: 'id', column: 'id', definition: idField },
      ...Object.entries(definition.fields).map(([field, fieldDefinition]) => ({
        field,
        column: columnName(schema, model, field),
        definition: fieldDefinition,
      })),
    ]
    models.set(model, list)
  }
  return list
}

/**
 * Reads a database row back into the model's fields. Columns the schema does
 * not know (added by the application by hand) are not returned.
 *
 * @example
 * fromRow(schema, 'user', { id: 'u1', emailVerified: 0, ... }) // { id: 'u1', emailVerified: false, ... }
 */
export function fromRow(schema: Schema, model: string, raw: Readonly<Record<string, unknown>>): Row {
  const row: Row = {}
  for (const { field, column, definition } of fieldReaders(schema, model)) row[field] = fromColumnValue(definition, raw[column])
  return row
}

/** Fills fields the caller left out with the schema's `defaultValue` (a constant or a function). */
export function withDefaults(schema: Schema, model: string, data: Row): Row {
  const filled: Row = { ...data }
  for (const [field, definition] of Object.entries(getModel(schema, model).fields)) {
    if (filled[field] !== undefined || definition.defaultValue === undefined) continue
    const fallback: unknown = definition.defaultValue
    filled[field] = typeof fallback === 'function' ? fallback() : fallback
  }
  return filled
}
