/**
 * @module
 * `JSON.stringify` for response bodies, written out in JS. Every session
 * answer carries five Dates, and Node 20's V8 serializes an object with a
 * `toJSON` method on its slow path and then runs `Date.prototype.toISOString`,
 * itself slow; measured under load, serializing a get-session body cost more
 * instructions than verifying its signed cookie. This is the same algorithm
 * (ECMA-262 §25.5.2, without replacer or indent), with shortcuts that
 * cannot change the text: a Date whose `toJSON` and `toISOString` are the
 * built-in ones is formatted from its time value (recent instants are
 * remembered), a string with nothing to escape is quoted as it is, and
 * quoted keys are remembered. Everything else (escaping, boxed primitives,
 * BigInt's TypeError) is handed to `JSON.stringify` itself.
 */

const nativeDateToJSON = Date.prototype.toJSON
const nativeToISOString = Date.prototype.toISOString

/** What JSON.stringify escapes: quote, backslash, control characters, and lone surrogates (ES2019). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`
}

/**
 * Keys as written, with their colon: the same few dozen field names appear in
 * every answer, and property keys are interned strings whose hash is already
 * known, so finding one costs less than testing it for characters to escape.
 */
const quotedKeys = new Map<string, string>()
const QUOTED_KEYS = 4096

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key)
  if (quoted === undefined) {
    quoted = `${quote(key)}:`
    if (quotedKeys.size >= QUOTED_KEYS) quotedKeys.clear()
    quotedKeys.set(key, quoted)
  }
  return quoted
}

/** Zero-padded numerals, made once: formatting a date then needs no number-to-string conversions. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'))
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'))

/** `n` (an integer below the table's length) as the table has it. */
function digits(table: readonly string[], n: number): string {
  return table[n] ?? ''
}

const DAY_MS = 86_400_000

/** `toJSON` of a Date: years 1000–9999 here, other dates (and invalid ones, null) through the built-in. */
function dateText(date: Date): string | null {
  const time = date.getTime()
  // 1000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z
  if (!(time >= -30_610_224_000_000 && time <= 253_402_300_799_999)) return nativeDateToJSON.call(date)
  const known = recentDates.get(time)
  if (known !== undefined) return known
  const text = formatDate(time)
  if (recentDates.size >= RECENT_DATES) recentDates.clear()
  recentDates.set(time, text)
  return text
}

/**
 * Texts of recently written instants. A session's dates (created, updated,
 * expires) are the same on every read until it is refreshed, and building
 * the text costs about a thousand instructions; finding it costs a few dozen.
 * Cleared when full: entries are cheap to remake and cannot go stale.
 */
const recentDates = new Map<number, string>()
const RECENT_DATES = 1024

/**
 * The ISO text of a time value in years 1000–9999. Arithmetic rather
 * than `getUTC*`: on Node 20 each of those is a call into the runtime, six per
 * date. Days to a civil date as in Howard Hinnant's `civil_from_days`, over
 * 400-year eras of 146097 days starting on 0000-03-01.
 */
function formatDate(time: number): string {
  const days = Math.floor(time / DAY_MS)
  const ms = time - days * DAY_MS
  const shifted = days + 719_468
  const era = Math.floor(shifted / 146_097)
  const dayOfEra = shifted - era * 146_097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const hours = Math.floor(ms / 3_600_000)
  const minutes = Math.floor(ms / 60_000) % 60
  const seconds = Math.floor(ms / 1000) % 60
  return `${String(year)}-${digits(TWO_DIGITS, month)}-${digits(TWO_DIGITS, day)}T${digits(TWO_DIGITS, hours)}:${digits(TWO_DIGITS, minutes)}:${digits(TWO_DIGITS, seconds)}.${digits(THREE_DIGITS, ms % 1000)}Z`
}

function isPlainDate(value: object): value is Date {
  return (
    value instanceof Date &&
    Object.getPrototypeOf(value) === Date.prototype &&
    value.toJSON === nativeDateToJSON &&
    value.toISOString === nativeToISOString
  )
}

/** SerializeJSONProperty: the text of `value` held under `key`, or undefined when it is left out. */
function property(key: string, input: unknown, stack: object[]): string | undefined {
  let value = input
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    if (isPlainDate(value)) {
      const text = dateText(value)
      return text === null ? 'null' : `"${text}"`
    }
    const toJSON: unknown = (value as { toJSON?: unknown }).toJSON
    if (typeof toJSON === 'function') value = toJSON.call(value, key)
  } else if (typeof value === 'bigint') {
    // BigInt.prototype.toJSON is absent unless an application adds one; either way the built-in decides.
    return JSON.stringify(value)
  }
  switch (typeof value) {
    case 'string':
      return quote(value)
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'
    case 'boolean':
      return value ? 'true' : 'false'
    case 'bigint':
      return JSON.stringify(value)
    case 'object':
      if (value === null) return 'null'
      // Boxed primitives serialize as their primitive (a boxed BigInt throws), as the built-in decides.
      if (value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt) {
        return JSON.stringify(value)
      }
      return container(value, stack)
    default:
      // undefined, functions and symbols have no JSON text.
      return undefined
  }
}

/** SerializeJSONObject and SerializeJSONArray. */
function container(value: object, stack: object[]): string {
  if (stack.includes(value)) throw new TypeError('Converting circular structure to JSON')
  stack.push(value)
  let text: string
  if (Array.isArray(value)) {
    const list: readonly unknown[] = value
    text = '['
    for (let index = 0; index < list.length; index++) {
      if (index > 0) text += ','
      text += property(String(index), list[index], stack) ?? 'null'
    }
    text += ']'
  } else {
    const record = value as Readonly<Record<string, unknown>>
    text = '{'
    let first = true
    for (const key of Object.keys(record)) {
      const item = property(key, record[key], stack)
      if (item === undefined) continue
      text += `${first ? '' : ','}${quotedKey(key)}${item}`
      first = false
    }
    text += '}'
  }
  stack.pop()
  return text
}

/**
 * The JSON text of a handler's return value: exactly `JSON.stringify(value)`.
 *
 * @example
 * toJsonText({ at: new Date(0) }) // '{"at":"1970-01-01T00:00:00.000Z"}'
 */
export function toJsonText(value: unknown): string {
  // A value with no JSON text (a function) gets JSON.stringify's own answer.
  return property('', value, []) ?? JSON.stringify(value)
}
