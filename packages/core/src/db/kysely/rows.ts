/**
 * @module
 * Maps between the adapter's rows (field names, application values) and the
 * database's (column names, stored values), using the schema's `columnName`
 * overrides and the conversions in values.ts.
 */
import type { Row } from '../adapter.js'
import { columnName, getModel, perModel, type FieldDefinition, type Schema } from '../schema.js'
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
 * The model's fields in row order, `id` first, with their columns. Every row
 * read walks this list, so it is worked out once per schema and model rather
 * than per row (field lookups and column-name overrides were a measurable
 * share of a get-session read).
 *
 * @example
 * fieldReaders(schema, 'user').map((reader) => reader.column) // ['id', 'name', 'email', ...]
 */
export const fieldReaders = perModel((schema, model): readonly FieldReader[] => [
  { field: 'id', column: columnName(schema, model, 'id'), definition: idField },
  ...Object.entries(getModel(schema, model).fields).map(([field, definition]) => ({ field, column: columnName(schema, model, field), definition })),
])

type RowReader = (raw: Readonly<Record<string, unknown>>) => Row

const rowReaders = perModel((schema, model) => rowReader(fieldReaders(schema, model)))

/**
 * Reads a database row back into the model's fields. Columns the schema does
 * not know (added by the application by hand) are not returned.
 *
 * @example
 * fromRow(schema, 'user', { id: 'u1', emailVerified: 0, ... }) // { id: 'u1', emailVerified: false, ... }
 */
export function fromRow(schema: Schema, model: string, raw: Readonly<Record<string, unknown>>): Row {
  return rowReaders(schema, model)(raw)
}

/**
 * One function per model whose object literal names the fields in order:
 * `(raw) => ({ "id": read(0, raw["id"]), "name": read(1, raw["name"]), … })`.
 * Filling an empty object field by field stored each value under a key only
 * known at run time, a generic keyed store per value: most of the cost of
 * reading a user's 50 sessions after the query itself. The literal makes the
 * same object (same keys, order and values) with one hidden class per model.
 * Names are JSON string literals, so a field name can never become code; a
 * model with a field named `__proto__` (which a literal would take for the
 * prototype) is built field by field with own properties instead.
 */
function rowReader(readers: readonly FieldReader[]): RowReader {
  const read = (index: number, value: unknown): unknown => {
    const reader = readers[index]
    return reader ? fromColumnValue(reader.definition, value) : null
  }
  if (readers.some((reader) => reader.field === '__proto__')) {
    // Defined, not assigned: assigning `__proto__` would replace the row's prototype with the stored value.
    return (raw) => {
      const row: Row = {}
      for (const [index, reader] of readers.entries()) {
        Object.defineProperty(row, reader.field, { value: read(index, raw[reader.column]), enumerable: true, writable: true, configurable: true })
      }
      return row
    }
  }
  const properties = readers.map((reader, index) => `${JSON.stringify(reader.field)}: read(${String(index)}, raw[${JSON.stringify(reader.column)}])`)
  const make = new Function('read', `return (raw) => ({ ${properties.join(', ')} })`) as (read: (index: number, value: unknown) => unknown) => RowReader
  return make(read)
}

/**
 * Fills fields the caller left out with the schema's `defaultValue` (a constant or a function).
 *
 * @example
 * withDefaults(coreSchema, 'user', { id: 'u1', name: 'Ada' }).emailVerified // false
 */
export function withDefaults(schema: Schema, model: string, data: Row): Row {
  const filled: Row = { ...data }
  for (const [field, definition] of Object.entries(getModel(schema, model).fields)) {
    if (filled[field] !== undefined || definition.defaultValue === undefined) continue
    const fallback: unknown = definition.defaultValue
    filled[field] = typeof fallback === 'function' ? fallback() : fallback
  }
  return filled
}
