/**
 * @module
 * `set-auth-token` (docs/sessions.md#bearer-tokens): with the `bearer` option,
 * every answer that sets the session cookie to a session also hands its value
 * out in this header, for clients that keep no cookies (a mobile app reads it
 * after sign-in and sends it back as `Authorization: Bearer`). It is exposed
 * to cross-origin scripts only where the application's CORS layer lets them
 * read the answer at all.
 */
import type { CookieJar } from './cookie-jar.js'

/** The last value the call set the session cookie to, or null when it set none or cleared it. */
function sessionCookieValue(cookies: CookieJar): string | null {
  const prefix = `${cookies.names.sessionToken}=`
  let value: string | null = null
  for (const line of cookies.outgoing) {
    if (!line.startsWith(prefix)) continue
    const end = line.indexOf(';')
    const raw = line.slice(prefix.length, end === -1 ? undefined : end)
    // A clear (sign-out, a vanished session) is an empty value.
    value = raw === '' ? null : safeDecode(raw)
  }
  return value
}

/**
 * Adds `set-auth-token` and its `Access-Control-Expose-Headers` entry when the
 * call set the session cookie to a session.
 *
 * @example
 * exposeSessionToken(Boolean(auth.options.bearer), input.cookies, input.responseHeaders)
 */
export function exposeSessionToken(bearer: boolean, cookies: CookieJar, headers: Headers): void {
  if (!bearer) return
  const token = sessionCookieValue(cookies)
  if (token === null) return
  exposeHeader(headers, 'set-auth-token', token)
}

/**
 * Sets `name` and lists it in `Access-Control-Expose-Headers` (keeping the
 * names already there), so a script on an allowed origin may read it: the
 * tokens handed out in headers (`set-auth-token`, `set-auth-jwt`).
 *
 * @example
 * exposeHeader(ctx.responseHeaders, 'set-auth-jwt', token)
 */
export function exposeHeader(headers: Headers, name: string, value: string): void {
  headers.set(name, value)
  const exposed = new Set(
    (headers.get('access-control-expose-headers') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  exposed.add(name)
  headers.set('access-control-expose-headers', [...exposed].join(', '))
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
