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
  headers.set('set-auth-token', token)
  const exposed = new Set(
    (headers.get('access-control-expose-headers') ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  )
  exposed.add('set-auth-token')
  headers.set('access-control-expose-headers', [...exposed].join(', '))
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
