/**
 * @module
 * What leaves the server of a stored row: fields marked `returned: false`
 * (password hashes, provider tokens) are dropped, and rows revived from JSON
 * (cookie cache, secondary storage) get their Date fields back.
 */
import type { Row } from './adapter.js'
import { getModel, type Schema } from './schema.js'

/** What output needs to know of a model's fields, worked out once per schema and model: both run on every session read. */
interface OutputFields {
  readonly hidden: ReadonlySet<string>
  readonly dates: readonly string[]
}

const outputFields = new WeakMap<Schema, Map<string, OutputFields>>()

function fieldsFor(schema: Schema, model: string): OutputFields {
  let models = outputFields.get(schema)
  if (!models) {
    models = new Map()
    outputFields.set(schema, models)
  }
  let found = models.get(model)
  if (!found) {
    const fields = Object.entries(getModel(schema, model).fields)
    found = {
      hidden: new Set(fields.filter(([, definition]) => definition.returned === false).map(([field]) => field)),
      dates: fields.filter(([, definition]) => definition.type === 'date').map(([field]) => field),
    }
    models.set(model, found)
  }
  return found
}

/** The row without its `returned: false` fields. */
export function publicRow<T extends Row>(schema: Schema, model: string, row: T): T {
  const { hidden } = fieldsFor(schema, model)
  const result: Row = {}
  for (const key of Object.keys(row)) {
    if (hidden.has(key)) continue
    result[key] = row[key]
  }
  return result as T
}

/**
 * Turns the ISO strings of `date` fields back into Dates, after a JSON round
 * trip. `T` is the caller's name for rows of `model`: the data was written
 * from such a row by this server and signed or stored by it.
 */
export function reviveDates<T>(schema: Schema, model: string, row: Row): T {
  const result: Row = { ...row }
  for (const field of fieldsFor(schema, model).dates) {
    const value = result[field]
    if (typeof value === 'string') result[field] = new Date(parsedTime(value))
  }
  return result as T
}

/**
 * `Date.parse`, remembering recent texts. The cookie cache is revived on
 * every request, and a session's dates are the same texts until it is
 * refreshed: a lookup costs a fraction of parsing. Cleared when full; a
 * text always parses to the same time, so entries never go stale.
 */
function parsedTime(text: string): number {
  let time = recentTimes.get(text)
  if (time === undefined) {
    time = Date.parse(text)
    if (recentTimes.size >= RECENT_TIMES) recentTimes.clear()
    recentTimes.set(text, time)
  }
  return time
}

const recentTimes = new Map<string, number>()
const RECENT_TIMES = 1024
