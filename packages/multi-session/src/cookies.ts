/**
 * @module
 * One cookie per account signed in on this browser (docs/multi-session.md#cookies):
 * `session_token_multi-<id>` under core's cookie policy (prefix, HttpOnly,
 * Secure, SameSite), signed with a key of its own, holding that session's
 * token. `<id>` is the session's public identifier (the SHA-256 of its token
 * that session answers show as `session.token`), lowercased as the leading
 * library does, so its client's `sessionToken` finds the cookie. A cookie
 * whose signature does not verify is nobody's: a page cannot plant one.
 */
import { findSession, hashSessionToken, parseCookieHeader, type CookieJar, type SessionWithUser } from '@gatehouse/core'

const SHORT_PREFIX = 'session_token_multi-'

type Ctx = { readonly cookies: CookieJar; readonly headers: Headers }

/** The short name of the cookie for the session whose public identifier is `id`. */
export function multiCookie(id: string): string {
  return `${SHORT_PREFIX}${id.toLowerCase()}`
}

/** The short name of the cookie for the session whose token is `token`. */
export function multiCookieOfToken(token: string): string {
  return multiCookie(hashSessionToken(token))
}

export interface HeldSession {
  /** The cookie's short name. */
  readonly cookie: string
  /** The session token it holds (signature verified). */
  readonly token: string
}

/** Every multi-session cookie this request carries whose signature verifies. */
export function heldSessions(ctx: Ctx): HeldSession[] {
  const fullPrefix = ctx.cookies.name(SHORT_PREFIX)
  const held: HeldSession[] = []
  for (const name of parseCookieHeader(ctx.headers.get('cookie')).keys()) {
    if (!name.startsWith(fullPrefix)) continue
    const cookie = `${SHORT_PREFIX}${name.slice(fullPrefix.length)}`
    const token = ctx.cookies.getSigned(cookie)
    if (token) held.push({ cookie, token })
  }
  return held
}

/** The session `token` opens now (from the store: a revoked or expired session is nobody's), or null. */
export async function liveSession(auth: Parameters<typeof findSession>[0], token: string): Promise<SessionWithUser | null> {
  const found = await findSession(auth, token)
  if (!found || found.session.expiresAt.getTime() <= auth.clock.now().getTime()) return null
  return found
}
