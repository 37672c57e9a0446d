/**
 * @module
 * What leaves the server of a stored row: fields marked `returned: false`
 * (password hashes, provider tokens) are dropped, and rows revived from JSON
 * (cookie cache, secondary storage) get their Date fields back.
 */
import type { Row } from './adapter.js'
import { getModel, perModel, type Schema } from './schema.js'

/** What output needs to know of a model's fields, worked out once per schema and model: both run on every session read. */
interface OutputFields {
  readonly hidden: ReadonlySet<string>
  readonly dates: readonly string[]
}

const fieldsFor = perModel((schema, model): OutputFields => {
  const fields = Object.entries(getModel(schema, model).fields)
  return {
    hidden: new Set(fields.filter(([, definition]) => definition.returned === false).map(([field]) => field)),
    dates: fields.filter(([, definition]) => definition.type === 'date').map(([field]) => field),
  }
})

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
 * every request, SQLite rows hold their dates as text, and a session's dates
 * are the same texts until it is refreshed: a lookup costs a fraction of parsing. Cleared when full; a
 * text always parses to the same time, so entries never go stale.
 */
export function parsedTime(text: string): number {
  let time = recentTimes.get(text)
  if (time === undefined) {
    time = parseIsoTime(text)
    if (recentTimes.size >= RECENT_TIMES) recentTimes.clear()
    recentTimes.set(text, time)
  }
  return time
}

const recentTimes = new Map<string, number>()
const RECENT_TIMES = 1024

const DAY_MS = 86_400_000

/** The value of the ASCII digit at `index`, or -1. */
function digitAt(text: string, index: number): number {
  const code = text.charCodeAt(index) - 48
  return code >= 0 && code <= 9 ? code : -1
}

/** The number spelled by `length` digits from `index`, or -1 if any is not a digit. */
function numberAt(text: string, index: number, length: number): number {
  let value = 0
  for (let i = index; i < index + length; i++) {
    const digit = digitAt(text, i)
    if (digit < 0) return -1
    value = value * 10 + digit
  }
  return value
}

/**
 * `Date.parse(text)`, with a fast path for the one form this library writes
 * (`toISOString`'s `YYYY-MM-DDTHH:mm:ss.sssZ`, how SQLite stores every date
 * field and how JSON carries them). Every date of every row read is parsed,
 * 150 per request for a user's 50 sessions, and V8's general date parser
 * costs several times this arithmetic. Anything else (other forms, days past
 * the 28th, whose validity depends on the month) goes to `Date.parse`, so
 * the answer is always exactly its answer.
 *
 * @example
 * parseIsoTime('1970-01-02T00:00:00.000Z') // 86400000
 */
export function parseIsoTime(text: string): number {
  if (
    text.length !== 24 ||
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 || // T
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 46 || // .
    text.charCodeAt(23) !== 90 // Z
  ) {
    return Date.parse(text)
  }
  const year = numberAt(text, 0, 4)
  const month = numberAt(text, 5, 2)
  const day = numberAt(text, 8, 2)
  const hours = numberAt(text, 11, 2)
  const minutes = numberAt(text, 14, 2)
  const seconds = numberAt(text, 17, 2)
  const ms = numberAt(text, 20, 3)
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 28 || hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59 || ms < 0) {
    return Date.parse(text)
  }
  // Howard Hinnant's days_from_civil: 400-year eras of 146097 days, years starting on 1 March.
  const shiftedYear = month <= 2 ? year - 1 : year
  const era = Math.floor(shiftedYear / 400)
  const yearOfEra = shiftedYear - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  const days = era * 146_097 + dayOfEra - 719_468
  return days * DAY_MS + hours * 3_600_000 + minutes * 60_000 + seconds * 1000 + ms
}
