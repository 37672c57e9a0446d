/**
 * @module
 * The body of the `session_data` cookie (the cookie cache of docs/sessions.md): the
 * {session, user} and the cache's own expiry, as base64url JSON, signed by
 * the cookie jar.
 *
 * Verifying the signature and decoding (base64url, UTF-8, JSON.parse) were
 * the largest costs of serving get-session from the cookie cache, and a
 * browser sends the very same cookie on every request until the cache is
 * rewritten. So each auth instance remembers, per session token hash, the
 * last signed text it verified and the payload decoded from it, and reuses
 * them only for that exact text (a string comparison). Both steps are pure
 * functions of the text and the instance's keys, so the answer is the one
 * recomputing would give; expiry and the token binding are still checked
 * on every request. Only payloads whose session, user and extra fields hold
 * no nested objects are remembered, and they are frozen: readers copy them
 * before handing them out, so no request sees another's edits.
 */
import { primitives } from '../crypto/primitives.js'
import type { CachePayload, CachePayloadMemo } from '../types/services.js'

export const RECENT_PAYLOADS = 256

/**
 * @example
 * ctx.cookies.setSigned('session_data', encodeCachePayload({ session, user, expiresAt }))
 */
export function encodeCachePayload(payload: CachePayload): string {
  return primitives.encodeBase64urlText(JSON.stringify(payload))
}

/**
 * One per auth instance: the memo must never vouch for a text verified
 * under another instance's secret.
 *
 * @example
 * const memo = createCachePayloadMemo()
 * const payload = memo.read(cookieText, hashSessionToken(token), (text) => verifySignedCookieValue(text, keys))
 */
export function createCachePayloadMemo(): CachePayloadMemo {
  /** About 2 KB a session; oldest out first once full. */
  const recent = new Map<string, { readonly signed: string; readonly payload: CachePayload }>()
  return {
    read(signed, tokenHash, verify) {
      const known = recent.get(tokenHash)
      if (known && known.signed === signed) return known.payload
      const text = verify(signed)
      if (text === null) return null
      const payload = decodeCachePayload(text)
      if (payload && isFlat(payload.session) && isFlat(payload.user) && (payload.extra === undefined || isFlat(payload.extra))) {
        Object.freeze(payload.session)
        Object.freeze(payload.user)
        if (payload.extra) Object.freeze(payload.extra)
        recent.delete(tokenHash)
        if (recent.size >= RECENT_PAYLOADS) {
          const oldest = recent.keys().next()
          if (!oldest.done) recent.delete(oldest.value)
        }
        recent.set(tokenHash, { signed, payload: Object.freeze(payload) })
      }
      return payload
    },
  }
}

/** Decodes a verified cookie value; null when it is not a payload. */
export function decodeCachePayload(text: string): CachePayload | null {
  try {
    const json = primitives.decodeBase64urlText(text)
    if (json === null) return null
    const parsed = JSON.parse(json) as Partial<CachePayload>
    if (typeof parsed.expiresAt !== 'number' || !isRecord(parsed.session) || !isRecord(parsed.user)) return null
    const base = { session: parsed.session, user: parsed.user, expiresAt: parsed.expiresAt }
    return isRecord(parsed.extra) && !Array.isArray(parsed.extra) ? { ...base, extra: parsed.extra } : base
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
