/**
 * @module
 * Maps between the adapter's rows (field names, application values) and the
 * database's (column names, stored values), using the schema's `columnName`
 * overrides and the conversions in values.ts.
 */
import type { Row } from '../adapter.js'
import { columnName, getModel, type Schema } from '../schema.js'
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

/**
 * Reads a database row back into the model's fields. Columns the schema does
 * not know (added by the application by hand) are not returned.
 *
 * @example
 * fromRow(schema, 'user', { id: 'u1', emailVerified: 0, ... }) // { id: 'u1', emailVerified: false, ... }
 */
export function fromRow(schema: Schema, model: string, raw: Readonly<Record<string, unknown>>): Row {
  const definition = getModel(schema, model)
  const row: Row = { id: fromColumnValue(idField, raw.id) }
  for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
    row[field] = fromColumnValue(fieldDefinition, raw[columnName(schema, model, field)])
  }
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
