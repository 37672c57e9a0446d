/**
 * @module
 * Values between Gatehouse's field types (`Date`, `boolean`, `number`, JSON,
 * `string`) and the application's Drizzle columns. The column's own mapping
 * (`mapToDriverValue`, a `customType`'s `toDriver`) does the last step to the
 * driver, so what is handed to Drizzle is what the column's TypeScript type
 * says: a `Date` for `timestamp`/`datetime` columns and the generated
 * `isoDate`, ISO text for a plain `text` column, `1`/`0` for an `integer`
 * column without `mode: 'boolean'`. Hand-written tables that store a field
 * another common way therefore work too. Reads go the other way and always
 * give the field's type.
 */
import { fromColumnValue, type FieldDefinition, type Row } from '@gatehouse/core'
import type { Column } from 'drizzle-orm'
import type { BoundField, BoundModel } from './tables.js'
import { fieldOf } from './tables.js'

function toDate(value: unknown): Date {
  const date = value instanceof Date ? value : new Date(typeof value === 'string' || typeof value === 'number' ? value : Number.NaN)
  if (Number.isNaN(date.getTime())) throw new TypeError(`Invalid date value: ${String(value)}`)
  return date
}

/**
 * What `column` takes for a value of `field`'s type.
 *
 * @example
 * toColumnInput({ type: 'date' }, textColumn, new Date(0)) // '1970-01-01T00:00:00.000Z'
 */
export function toColumnInput(field: FieldDefinition, column: Column, value: unknown): unknown {
  if (value === null || value === undefined) return null
  const kind = column.dataType
  switch (field.type) {
    case 'date': {
      const date = toDate(value)
      if (kind === 'string') return date.toISOString()
      if (kind === 'number') return date.getTime()
      return date
    }
    case 'boolean':
      return kind === 'number' ? (value ? 1 : 0) : Boolean(value)
    case 'json':
      return kind === 'string' ? JSON.stringify(value) : value
    case 'number':
      if (kind === 'bigint') return BigInt(typeof value === 'bigint' ? value : Math.trunc(Number(value)))
      return typeof value === 'bigint' ? Number(value) : value
    case 'string':
      return value
  }
}

/** The field's value from what Drizzle read: JSON text is parsed only when the column did not parse it already. */
function fromColumnOutput({ definition, column }: BoundField, value: unknown): unknown {
  if (definition.type === 'json' && column.dataType !== 'string') return value ?? null
  return fromColumnValue(definition, value)
}

/**
 * A row as Gatehouse reads it, from a row Drizzle returned keyed by field
 * name; columns the application added to the table are left out.
 *
 * @example
 * readRow(model, { id: 'u1', emailVerified: 1, ... }) // { id: 'u1', emailVerified: true, ... }
 */
export function readRow(model: BoundModel, raw: Readonly<Record<string, unknown>>): Row {
  const row: Row = {}
  for (const bound of model.fields) {
    const value = fromColumnOutput(bound, raw[bound.field])
    // Assigning `__proto__` would replace the row's prototype rather than add a field.
    if (bound.field === '__proto__') Object.defineProperty(row, bound.field, { value, enumerable: true, writable: true, configurable: true })
    else row[bound.field] = value
  }
  return row
}

/**
 * `data` keyed by the table's column keys with each value as its column takes it; fields
 * set to `undefined` are left out, an unknown field is an error.
 *
 * @example
 * writeValues(model, { emailVerified: true }) // { emailVerified: true } (or 1 for an integer column)
 */
export function writeValues(model: BoundModel, data: Row): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(data)) {
    if (value === undefined) continue
    const bound = fieldOf(model, field)
    // Drizzle takes values under the table's keys, which on an application's own table may differ from the field names.
    values[bound.key] = toColumnInput(bound.definition, bound.column, value)
  }
  return values
}
