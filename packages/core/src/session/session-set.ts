/**
 * @module
 * Whether this call set a new session cookie, and for which token: for
 * plugins that act on every sign-in whatever its route (the multi-session
 * list, a guest's data moved to the account it signed in as, the last login
 * method). A call that set the cookie committed a session, or refreshed one.
 */
import type { CookieJar } from '../cookies/cookie-jar.js'

export interface SessionCookieSet {
  /** The Set-Cookie line, for a cookie of the same scope. */
  readonly line: string
  /** The session token inside it. */
  readonly token: string
}

/**
 * The session cookie this call set, with its token; null when it set none or cleared it.
 *
 * @example
 * const set = sessionCookieSet(ctx.cookies)
 * if (set && set.token !== readSessionToken(ctx)) // a new session, not a refresh of the one the request carried
 */
export function sessionCookieSet(jar: CookieJar): SessionCookieSet | null {
  const prefix = `${jar.names.sessionToken}=`
  let found: SessionCookieSet | null = null
  for (const line of jar.outgoing) {
    if (!line.startsWith(prefix)) continue
    const end = line.indexOf(';')
    const raw = safeDecode(line.slice(prefix.length, end === -1 ? undefined : end))
    // A clear (sign-out, a vanished session) is an empty value. The value is `token.signature`, written by this call.
    const dot = raw.lastIndexOf('.')
    found = raw === '' || dot <= 0 ? null : { line, token: raw.slice(0, dot) }
  }
  return found
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
