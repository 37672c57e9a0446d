/**
 * @module
 * The plugin's two cookies (docs/last-login-method.md#the-cookie):
 *
 * - the method cookie, readable by page scripts, under the exact name the
 *   application chose (no prefix: the leading library's client looks for
 *   that name). It takes Path, Domain, Secure, SameSite and Partitioned
 *   from the session cookie the same answer sets, so it lives wherever the
 *   session does, and only its lifetime and HttpOnly differ;
 * - `last_login_pending`, core's policy (HttpOnly, signed, prefixed): the
 *   first factor's method while a two-factor sign-in waits for its second
 *   step, so the step that completes it records the first factor
 *   (docs/last-login-method.md#two-factor-sign-ins).
 */
import { sessionCookieSet as coreSessionCookieSet, type CookieJar, type HookContext } from '@gatehouse/core'
import { isLoginMethod } from './methods.js'

/** Short name under core's cookie policy: `gatehouse.last_login_pending`. */
export const PENDING_COOKIE = 'last_login_pending'

/**
 * An hour: longer than the two-factor plugin's pending sign-in (10 minutes by
 * default), so the second step still finds it. A stale one never outlives
 * the next first step, which replaces or deletes it.
 */
export const PENDING_MAX_AGE = 60 * 60

/** The two-factor plugin's pending sign-in cookie (docs/two-factor.md#signing-in). */
const TWO_FACTOR_PENDING_COOKIE = 'two_factor'

/** The last Set-Cookie line this call wrote for `name`, or null when it wrote none or cleared the cookie. */
function lastLine(jar: CookieJar, name: string): { readonly line: string; readonly value: string } | null {
  const prefix = `${name}=`
  let found: { line: string; value: string } | null = null
  for (const line of jar.outgoing) {
    if (!line.startsWith(prefix)) continue
    const end = line.indexOf(';')
    const raw = line.slice(prefix.length, end === -1 ? undefined : end)
    // A clear (sign-out, a vanished session) is an empty value.
    found = raw === '' ? null : { line, value: safeDecode(raw) }
  }
  return found
}

/** The session cookie this call set (a sign-in or sign-up), with the session token inside it; null when none. */
export const sessionCookieSet = coreSessionCookieSet

/** Whether this call started a two-factor pending sign-in (a first factor that still needs its second). */
export function startsSecondFactor(jar: CookieJar): boolean {
  return lastLine(jar, jar.name(TWO_FACTOR_PENDING_COOKIE)) !== null
}

/**
 * The Set-Cookie line of the method cookie: the session cookie's scope
 * (Path, Domain, Secure, SameSite, Partitioned), its own Max-Age, and no
 * HttpOnly, so the sign-in page's script can read it.
 *
 * @example
 * methodCookie('better-auth.last_used_login_method', 'email', 2592000, sessionLine)
 * // 'better-auth.last_used_login_method=email; Max-Age=2592000; Path=/; SameSite=Lax'
 */
export function methodCookie(name: string, method: string, maxAge: number, sessionLine: string): string {
  const parts = [`${name}=${method}`, `Max-Age=${maxAge}`]
  for (const attribute of sessionLine.split(';').slice(1)) {
    const trimmed = attribute.trim()
    const key = trimmed.split('=')[0]?.toLowerCase()
    if (key === 'path' || key === 'domain' || key === 'secure' || key === 'samesite' || key === 'partitioned') parts.push(trimmed)
  }
  return parts.join('; ')
}

type Jar = Pick<HookContext, 'cookies'>

/** Keeps the first factor's method until the second step (signed: the browser cannot choose what is recorded). */
export function holdPendingMethod(ctx: Jar, method: string): void {
  ctx.cookies.setSigned(PENDING_COOKIE, method, { maxAge: PENDING_MAX_AGE })
}

/** The first factor's method this browser holds, or null when absent, tampered with or malformed. */
export function pendingMethod(ctx: Jar): string | null {
  const value = ctx.cookies.getSigned(PENDING_COOKIE)
  return isLoginMethod(value) ? value : null
}

/** Deletes the pending method when the request carries one. */
export function dropPendingMethod(ctx: Jar): void {
  if (ctx.cookies.get(PENDING_COOKIE) !== undefined) ctx.cookies.delete(PENDING_COOKIE)
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
