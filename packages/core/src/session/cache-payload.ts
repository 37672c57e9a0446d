/**
 * @module
 * The body of the `session_data` cookie (SPEC §9 cookie cache): the
 * {session, user} and the cache's own expiry, as base64url JSON. The cookie
 * jar verifies the signature before anything here reads the text.
 *
 * Decoding (base64url, UTF-8, JSON.parse) was the largest cost of serving
 * get-session from the cookie cache, and a browser sends the very same
 * cookie on every request until the cache is rewritten. So the last payload
 * decoded for each session is remembered, under the session's token hash,
 * with the text it came from; it is reused only for that exact text (a
 * string comparison, far cheaper than decoding, or than hashing the text
 * as a key would be). Decoding is a pure function of the text, and the
 * caller still verifies the signature over it, and checks expiry and the
 * token binding, on every request. Only payloads whose session and user
 * hold no nested objects are remembered, and they are frozen: readers copy
 * the two rows before handing them out, so no request sees another's edits.
 */
import { primitives } from '../crypto/primitives.js'
import type { Session, User } from './types.js'

export interface CachePayload {
  readonly session: Session
  readonly user: User
  /** Epoch milliseconds after which the cache is not used. */
  readonly expiresAt: number
}

/** The last decoded payload per session token hash, with its text; about 2 KB each. Oldest out first once full. */
const recent = new Map<string, { readonly text: string; readonly payload: CachePayload }>()
export const RECENT_PAYLOADS = 256

/**
 * @example
 * ctx.cookies.setSigned('session_data', encodeCachePayload({ session, user, expiresAt }))
 */
export function encodeCachePayload(payload: CachePayload): string {
  return primitives.encodeBase64urlText(JSON.stringify(payload))
}

/**
 * The payload in a verified cookie text, or null when it is not one.
 * `tokenHash` names the session the cookie came with: the slot where the
 * decoded payload is remembered (a payload for another session never
 * passes the caller's token check anyway).
 *
 * @example
 * const payload = decodeCachePayload(ctx.cookies.getSigned('session_data') ?? '', hashSessionToken(token))
 */
export function decodeCachePayload(text: string, tokenHash: string): CachePayload | null {
  const known = recent.get(tokenHash)
  if (known && known.text === text) return known.payload
  const payload = decode(text)
  if (payload && isFlat(payload.session) && isFlat(payload.user)) {
    Object.freeze(payload.session)
    Object.freeze(payload.user)
    recent.delete(tokenHash)
    if (recent.size >= RECENT_PAYLOADS) {
      const oldest = recent.keys().next()
      if (!oldest.done) recent.delete(oldest.value)
    }
    recent.set(tokenHash, { text, payload: Object.freeze(payload) })
  }
  return payload
}

function decode(text: string): CachePayload | null {
  try {
    const json = primitives.decodeBase64urlText(text)
    if (json === null) return null
    const parsed = JSON.parse(json) as Partial<CachePayload>
    if (typeof parsed.expiresAt !== 'number' || !isRecord(parsed.session) || !isRecord(parsed.user)) return null
    return { session: parsed.session, user: parsed.user, expiresAt: parsed.expiresAt }
  } catch {
    return null
  }
}

function isRecord<T>(value: T | undefined): value is T {
  return typeof value === 'object' && value !== null
}

/** No value is an object or array, so a shallow copy of the row shares nothing mutable. */
function isFlat(row: Readonly<Record<string, unknown>>): boolean {
  for (const key in row) {
    const value = row[key]
    if (typeof value === 'object' && value !== null) return false
  }
  return true
}
