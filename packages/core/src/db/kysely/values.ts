/**
 * @module
 * Value conversion between the schema's field types and what each driver
 * stores and returns. Writes and where-clause operands go through
 * `toColumnValue`; every row read goes through `fromColumnValue`, so callers
 * always see `Date`, `boolean`, parsed JSON and `number`, whatever the backend.
 *
 * | type    | SQLite                | PostgreSQL         | MySQL / MariaDB          |
 * |---------|-----------------------|--------------------|--------------------------|
 * | date    | ISO-8601 text         | timestamptz        | DATETIME(3), pool in UTC |
 * | boolean | integer 0/1           | boolean            | TINYINT(1) 0/1           |
 * | json    | text (JSON.stringify) | text               | TEXT                     |
 * | bigint  | integer               | int8 (read as text)| BIGINT                   |
 */
import { parsedTime } from '../output.js'
import type { FieldDefinition } from '../schema.js'
import type { SqlDialect } from './dialect.js'

function toDate(value: unknown): Date {
  // parsedTime: Date.parse's answer, without its cost for the ISO text SQLite rows hold (db/output.ts).
  const date =
    value instanceof Date
      ? value
      : typeof value === 'string'
        ? new Date(parsedTime(value))
        : typeof value === 'number'
          ? new Date(value)
          : new Date(Number.NaN)
  if (Number.isNaN(date.getTime())) throw new TypeError(`Invalid date value: ${String(value)}`)
  return date
}

/**
 * Converts an application value to the value bound as a query parameter.
 *
 * @example
 * toColumnValue({ type: 'date' }, new Date(0), 'sqlite') // '1970-01-01T00:00:00.000Z'
 */
export function toColumnValue(field: FieldDefinition, value: unknown, dialect: SqlDialect): unknown {
  if (value === null || value === undefined) return null
  switch (field.type) {
    case 'date': {
      const date = toDate(value)
      // SQLite has no date type; toISOString's fixed-width UTC text sorts and compares like the instant it names.
      return dialect === 'sqlite' ? date.toISOString() : date
    }
    case 'boolean': {
      const flag = Boolean(value)
      // better-sqlite3 refuses to bind booleans; MySQL's BOOLEAN is TINYINT(1).
      return dialect === 'postgres' ? flag : flag ? 1 : 0
    }
    case 'json':
      return JSON.stringify(value)
    case 'number':
      return typeof value === 'bigint' ? Number(value) : value
    case 'string':
      return value
  }
}

function decodeText(value: unknown): unknown {
  if (value instanceof Uint8Array) return new TextDecoder().decode(value)
  return value
}

/**
 * Converts a value read from the driver back to the field's type.
 *
 * @example
 * fromColumnValue({ type: 'boolean' }, 1, 'mysql') // true
 */
export function fromColumnValue(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null
  switch (field.type) {
    case 'date':
      return value instanceof Date ? value : toDate(value)
    case 'boolean':
      if (typeof value === 'boolean') return value
      if (typeof value === 'number') return value !== 0
      if (typeof value === 'bigint') return value !== 0n
      return value === '1' || value === 'true' || value === 't'
    case 'number':
      // pg returns int8 (BIGINT, COUNT) as text to avoid precision loss; Gatehouse's bigints are epoch milliseconds.
      return typeof value === 'number' ? value : Number(value)
    case 'json': {
      const text = decodeText(value)
      return typeof text === 'string' ? JSON.parse(text) : text
    }
    case 'string':
      return decodeText(value)
  }
}
