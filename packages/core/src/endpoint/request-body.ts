/**
 * @module
 * Parses a request body: JSON and form bodies become objects; webhook
 * endpoints take the raw text instead, because a signature covers the bytes
 * as sent, not a re-serialisation.
 */
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** Parses a JSON or form-encoded body; an empty body is `undefined`. */
export function parseBody(raw: string, contentType: string | null): unknown {
  // RFC 8259 §8.1: a parser may ignore a byte-order mark; the raw text keeps it (incoming.ts).
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw
  if (text.trim() === '') return undefined
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase()
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text))
  if (type === 'application/json' || type === '' || type?.endsWith('+json')) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      throw new AuthError(CoreErrors.INVALID_JSON)
    }
  }
  throw new AuthError(CoreErrors.UNSUPPORTED_MEDIA_TYPE)
}

/** Query parameters as an object; a repeated key becomes an array. */
export function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {}
  for (const [key, value] of search) {
    const existing = result[key]
    if (existing === undefined) result[key] = value
    else result[key] = Array.isArray(existing) ? [...existing, value] : [existing, value]
  }
  return result
}
