/**
 * @module
 * Values between Gatehouse's field types and the generated schema's Prisma
 * types (docs/adapters.md#value-conversions): `DateTime` takes a `Date`,
 * `BigInt` a `bigint` (read back as a `number`), and JSON fields are `String`
 * columns holding JSON text, as with every Gatehouse adapter.
 */
import { DatabaseError, fromColumnValue, type FieldDefinition, type Row } from '@gatehouse/core'
import { fieldOf, type BoundModel } from './models.js'

function toDate(value: unknown): Date {
  const date = value instanceof Date ? value : new Date(typeof value === 'string' || typeof value === 'number' ? value : Number.NaN)
  if (Number.isNaN(date.getTime())) throw new TypeError(`Invalid date value: ${String(value)}`)
  return date
}

/**
 * A field's value as Prisma Client takes it.
 *
 * @example
 * toPrisma({ type: 'json' }, { a: 1 }) // '{"a":1}'
 * toPrisma({ type: 'number', bigint: true }, 1700000000000) // 1700000000000n
 */
export function toPrisma(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null
  switch (field.type) {
    case 'date':
      return toDate(value)
    case 'boolean':
      return Boolean(value)
    case 'json':
      return JSON.stringify(value)
    case 'number':
      if (field.bigint === true) return BigInt(typeof value === 'bigint' ? value : Math.trunc(Number(value)))
      return Number(value)
    case 'string':
      return value
  }
}

/**
 * A row as Gatehouse reads it from one Prisma returned (keyed by Prisma field name).
 *
 * @example
 * readRow(model, { id: 'i1', big: 1099511627783n, payload: '{"a":1}' }) // { id: 'i1', big: 1099511627783, payload: { a: 1 } }
 */
export function readRow(model: BoundModel, raw: Readonly<Record<string, unknown>>): Row {
  const row: Row = {}
  for (const { field, prisma, definition } of model.fields) {
    const value = fromColumnValue(definition, raw[prisma])
    // Assigning `__proto__` would replace the row's prototype rather than add a field.
    if (field === '__proto__') Object.defineProperty(row, field, { value, enumerable: true, writable: true, configurable: true })
    else row[field] = value
  }
  return row
}

/**
 * `data` keyed by Prisma field name, each value as Prisma takes it; fields
 * set to `undefined` are left out, an unknown field is an error. A required
 * field set to null throws `NOT_NULL_VIOLATION`, as the database would:
 * Prisma Client refuses it with a validation error before sending anything.
 * With `complete` (a create), a required field left out throws it too.
 *
 * @example
 * writeData(model, { emailVerified: true, createdAt: '2026-01-02T03:04:05.678Z' }) // { emailVerified: true, createdAt: Date }
 */
export function writeData(model: BoundModel, data: Row, complete = false): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(data)) {
    if (value === undefined) continue
    const bound = fieldOf(model, field)
    values[bound.prisma] = toPrisma(bound.definition, value)
  }
  for (const { field, prisma, definition } of model.fields) {
    const value = values[prisma]
    if (definition.required !== false && (value === null || (complete && value === undefined))) {
      throw new DatabaseError('NOT_NULL_VIOLATION', `Not-null constraint violated on "${model.name}.${field}"`)
    }
  }
  return values
}
