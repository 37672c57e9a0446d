/**
 * @module
 * `JSON.stringify` for response bodies, written out in JS. Every session
 * answer carries five Dates, and Node 20's V8 serializes an object with a
 * `toJSON` method on its slow path and then runs `Date.prototype.toISOString`,
 * itself slow; measured under load, serializing a get-session body cost more
 * instructions than verifying its signed cookie. This is the same algorithm
 * (ECMA-262 §25.5.2, without replacer or indent), with two shortcuts that
 * cannot change the text: a Date whose `toJSON` and `toISOString` are the
 * built-in ones is formatted from its UTC fields, and a string with nothing
 * to escape is quoted as it is. Everything else (escaping, boxed primitives,
 * BigInt's TypeError) is handed to `JSON.stringify` itself.
 */

const nativeDateToJSON = Date.prototype.toJSON
const nativeToISOString = Date.prototype.toISOString

/** What JSON.stringify escapes: quote, backslash, control characters, and lone surrogates (ES2019). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`
}

function two(n: number): string {
  return n < 10 ? `0${String(n)}` : String(n)
}

function three(n: number): string {
  return n < 10 ? `00${String(n)}` : n < 100 ? `0${String(n)}` : String(n)
}

const DAY_MS = 86_400_000

/**
 * `toJSON` of a Date for years 1000–9999, computed from its time value; other
 * dates (and invalid ones, null) go through the built-in. Arithmetic rather
 * than `getUTC*`: on Node 20 each of those is a call into the runtime, six per
 * date. Days to a civil date as in Howard Hinnant's `civil_from_days`, over
 * 400-year eras of 146097 days starting on 0000-03-01.
 */
function dateText(date: Date): string | null {
  const time = date.getTime()
  // 1000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z
  if (!(time >= -30_610_224_000_000 && time <= 253_402_300_799_999)) return nativeDateToJSON.call(date)
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
  return `${String(year)}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${three(ms % 1000)}Z`
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
      text += `${first ? '' : ','}${quote(key)}:${item}`
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
