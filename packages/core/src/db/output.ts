/**
 * @module
 * What leaves the server of a stored row: fields marked `returned: false`
 * (password hashes, provider tokens) are dropped, and rows revived from JSON
 * (cookie cache, secondary storage) get their Date fields back.
 */
import type { Row } from './adapter.js'
import { getModel, type Schema } from './schema.js'

/** The row without its `returned: false` fields. */
export function publicRow<T extends Row>(schema: Schema, model: string, row: T): T {
  const fields = getModel(schema, model).fields
  const result: Row = {}
  for (const [key, value] of Object.entries(row)) {
    if (fields[key]?.returned === false) continue
    result[key] = value
  }
  return result as T
}

/**
 * Turns the ISO strings of `date` fields back into Dates, after a JSON round
 * trip. `T` is the caller's name for rows of `model`: the data was written
 * from such a row by this server and signed or stored by it.
 */
export function reviveDates<T>(schema: Schema, model: string, row: Row): T {
  const fields = getModel(schema, model).fields
  const result: Row = { ...row }
  for (const [key, definition] of Object.entries(fields)) {
    const value = result[key]
    if (definition.type === 'date' && typeof value === 'string') result[key] = new Date(value)
  }
  return result as T
}
