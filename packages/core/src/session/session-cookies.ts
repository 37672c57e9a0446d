/**
 * @module
 * The session's cookies (docs/sessions.md#what-is-stored-where): `session_token` carries the signed
 * token; `dont_remember` marks a browser-session login (rememberMe off);
 * `session_data` is the optional cookie cache — the signed {session, user}
 * with its own short expiry, kept under the ~4093-character cookie limit.
 */
import { reviveDates } from '../db/output.js'
import type { EndpointContext } from '../endpoint/context.js'
import { unverifiedCookieValue } from '../cookies/cookies.js'
import { encodeCachePayload } from './cache-payload.js'
import { hashSessionToken } from './session-store.js'
import { sessionOptions } from './session-options.js'
import type { Session, SessionWithUser, User } from '../types/rows.js'

/** Browsers drop a cookie whose name=value and attributes pass 4096 bytes; 4093 keeps a small margin. */
export const COOKIE_CACHE_SIZE_LIMIT = 4093

type Ctx = Pick<EndpointContext, 'cookies' | 'clock' | 'options' | 'auth'>

export function readSessionToken(ctx: Pick<EndpointContext, 'cookies'>): string | null {
  return ctx.cookies.getSigned('session_token')
}

export function isDontRemember(ctx: Pick<EndpointContext, 'cookies'>): boolean {
  return ctx.cookies.getSigned('dont_remember') === 'true'
}

/** Sets the token cookie (and the cache when enabled) for a new or refreshed session. */
export function setSessionCookies(
  ctx: Ctx,
  data: SessionWithUser & { token: string },
  options: { dontRemember?: boolean; cache?: boolean } = {},
): void {
  const { expiresIn } = sessionOptions(ctx.options)
  const dontRemember = options.dontRemember ?? isDontRemember(ctx)
  if (dontRemember) {
    // No Max-Age: the browser forgets the cookie when it closes (rememberMe: false).
    ctx.cookies.setSigned('session_token', data.token)
    ctx.cookies.setSigned('dont_remember', 'true')
  } else {
    const remaining = Math.floor((data.session.expiresAt.getTime() - ctx.clock.now().getTime()) / 1000)
    ctx.cookies.setSigned('session_token', data.token, { maxAge: Math.max(0, Math.min(remaining, expiresIn)) })
  }
  if (options.cache !== false) setCookieCache(ctx, data)
}

/**
 * Writes the cookie cache; `extra` is the get-session answer's custom fields
 * (docs/custom-session.md). False when the cache is off or the payload would
 * not fit: then no cache cookie is left, and readers go to the store.
 */
export function setCookieCache(ctx: Ctx, data: SessionWithUser, extra?: Readonly<Record<string, unknown>>): boolean {
  const { cookieCache } = sessionOptions(ctx.options)
  if (!cookieCache.enabled) return false
  const expiresAt = ctx.clock.now().getTime() + cookieCache.maxAge * 1000
  const payload = encodeCachePayload({ session: data.session, user: data.user, expiresAt, ...(extra ? { extra } : {}) })
  const name = ctx.cookies.name('session_data')
  // name=value.signature plus attributes must fit; past the limit the cache is skipped, not truncated.
  if (name.length + payload.length + 44 + 120 > COOKIE_CACHE_SIZE_LIMIT) {
    ctx.auth.logger.debug('session cookie cache skipped: payload too large', { bytes: payload.length })
    ctx.cookies.delete('session_data')
    return false
  }
  ctx.cookies.setSigned('session_data', payload, { maxAge: cookieCache.maxAge })
  return true
}

/**
 * The cookie cache's {session, user} for the token cookie the request
 * carries. The signed cache names its session by the SHA-256 of the token,
 * so only a holder of the token itself can match it: the token cookie's own
 * signature would prove nothing more here, and is checked on the database
 * path (`readSessionToken`) instead of on every cached request.
 *
 * @example
 * const cached = readCachedSession(ctx) // null: go to the database
 */
export function readCachedSession(ctx: Ctx): SessionWithUser | null {
  const token = unverifiedCookieValue(ctx.cookies.get('session_token'))
  return token ? readCookieCache(ctx, hashSessionToken(token)) : null
}

/** The cached {session, user}, if the signed cache cookie is present, unexpired and belongs to this token. */
export function readCookieCache(ctx: Ctx, tokenHash: string): SessionWithUser | null {
  const entry = readCacheEntry(ctx, tokenHash)
  return entry ? { session: entry.session, user: entry.user } : null
}

/** {@link readCachedSession} with the custom get-session fields the cache holds, if any (docs/custom-session.md). */
export function readCachedAnswer(ctx: Ctx): (SessionWithUser & { readonly extra?: Readonly<Record<string, unknown>> }) | null {
  const token = unverifiedCookieValue(ctx.cookies.get('session_token'))
  return token ? readCacheEntry(ctx, hashSessionToken(token)) : null
}

function readCacheEntry(ctx: Ctx, tokenHash: string): (SessionWithUser & { readonly extra?: Readonly<Record<string, unknown>> }) | null {
  const signed = ctx.cookies.get('session_data')
  if (!signed) return null
  const payload = ctx.auth.cookieCacheMemo.read(signed, tokenHash, () => ctx.cookies.getSigned('session_data'))
  const now = ctx.clock.now().getTime()
  if (!payload || payload.expiresAt <= now) return null
  if (payload.session.token !== tokenHash) return null
  const schema = ctx.auth.schema
  const session = reviveDates<Session>(schema, 'session', payload.session)
  if (session.expiresAt.getTime() <= now) return null
  const user = reviveDates<User>(schema, 'user', payload.user)
  return payload.extra ? { session, user, extra: { ...payload.extra } } : { session, user }
}

export function clearSessionCookies(ctx: Pick<EndpointContext, 'cookies'>): void {
  ctx.cookies.delete('session_token')
  ctx.cookies.delete('session_data')
  ctx.cookies.delete('dont_remember')
}
