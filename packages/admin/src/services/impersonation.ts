/**
 * @module
 * The cookie that keeps an admin's own session while they impersonate a
 * user (docs/admin.md#impersonation). It holds the admin's session token,
 * signed with its own per-cookie key, so it is exactly as sensitive as the
 * session cookie it stands in for, and it ends with the impersonation.
 */
import type { CookieJar } from '@gatehouse/core'

export const ADMIN_SESSION_COOKIE = 'admin_session'

export interface StoredAdminSession {
  readonly token: string
  /** The admin signed in with rememberMe off: restore a browser-session cookie. */
  readonly dontRemember: boolean
}

export function writeAdminSession(cookies: CookieJar, value: StoredAdminSession, maxAge: number): void {
  cookies.setSigned(ADMIN_SESSION_COOKIE, `${value.dontRemember ? '1' : '0'}:${value.token}`, { maxAge })
}

export function readAdminSession(cookies: CookieJar): StoredAdminSession | null {
  const value = cookies.getSigned(ADMIN_SESSION_COOKIE)
  const match = value ? /^([01]):(.+)$/.exec(value) : null
  if (!match) return null
  return { dontRemember: match[1] === '1', token: match[2] as string }
}

/** The session's `impersonatedBy`, or null for an ordinary session. */
export function impersonatorOf(session: { readonly [field: string]: unknown }): string | null {
  const value = session.impersonatedBy
  return typeof value === 'string' && value !== '' ? value : null
}
