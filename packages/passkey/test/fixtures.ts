/**
 * Fixtures for the passkey flows: an auth with the plugin on the in-memory
 * adapter (or a given database), a signed-up user, and request shorthands
 * that carry the browser's cookies from one step to the next, as the
 * ceremony does (options → authenticator → verify).
 */
import { accountAuth, browserAnswer, cookieHeader, PASSWORD, signUp, type BrowserAnswer } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import type { PasskeyOptions } from '../src/options.js'
import { passkey } from '../src/plugin.js'
import { softwareAuthenticator, type Overrides, type SoftwareAuthenticator } from './authenticator.js'

export { BASE, cookieHeader, PASSWORD }

export function passkeyAuth(options: PasskeyOptions = {}, core: Parameters<typeof accountAuth>[0] = {}) {
  return accountAuth({ ...core, plugins: [passkey(options)] })
}

export type PasskeyAuth = ReturnType<typeof passkeyAuth>

export type Answer = BrowserAnswer

/** What the request shorthands use of an auth: any auth with the plugin, other plugins beside it or not. */
export type Handles = Pick<PasskeyAuth, 'handler'>

/** A request from the app's origin with the browser's cookies. */
export async function call(auth: Handles, path: string, cookie: string, json?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { origin: BASE }
  if (cookie) headers.cookie = cookie
  return browserAnswer(await auth.handler(request(`/api/auth${path}`, json === undefined ? { headers } : { json, headers })), cookie)
}

/** Signs a new user up; the session cookie. */
export async function newUser(auth: PasskeyAuth, email = 'ada@example.com'): Promise<{ cookie: string; userId: string }> {
  const { body, cookie } = await signUp(auth, { email, name: email.split('@')[0] })
  return { cookie, userId: body.user.id }
}

/**
 * The whole registration: options, the authenticator's answer, verification, with the account's
 * password (the fixtures' users have one) unless `password` says otherwise (null: none sent).
 */
export async function registerPasskey(
  auth: Handles,
  authenticator: SoftwareAuthenticator,
  cookie: string,
  extra: { name?: string; password?: string | null; overrides?: Overrides & { algorithm?: 'ES256' | 'RS256' | 'EdDSA' } } = {},
) {
  const options = await call(auth, '/passkey/generate-register-options', cookie)
  if (options.status !== 200) throw new Error(`options answered ${options.status}`)
  const response = authenticator.register(options.body, extra.overrides)
  const password = extra.password === undefined ? PASSWORD : extra.password
  const verified = await call(auth, '/passkey/verify-registration', options.cookie, {
    response,
    ...(extra.name ? { name: extra.name } : {}),
    ...(password === null ? {} : { password }),
  })
  return { options, response, verified }
}

/** The whole sign-in: options (a signed-out browser by default), the assertion, verification. */
export async function signInWithPasskey(auth: Handles, authenticator: SoftwareAuthenticator, overrides: Overrides = {}, cookie = '') {
  const options = await call(auth, '/passkey/generate-authenticate-options', cookie)
  const response = authenticator.authenticate(options.body, overrides)
  return call(auth, '/passkey/verify-authentication', options.cookie, { response })
}

export function authenticatorFor(defaults: Parameters<typeof softwareAuthenticator>[1] = {}) {
  return softwareAuthenticator(BASE, defaults)
}

export async function getSession(auth: PasskeyAuth, cookie: string) {
  const response = await auth.handler(request('/api/auth/get-session', { headers: { cookie } }))
  return response.json()
}
