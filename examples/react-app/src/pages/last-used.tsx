/**
 * The sign-in page's "Last used" hint (docs/last-login-method.md): after each
 * sign-in the server sets the readable cookie `better-auth.last_used_login_method`
 * to the way in (`email`, `username`, `email-otp`, `phone-number`, `magic-link`,
 * `passkey`, `sso`, a provider id), and each sign-in option shows a badge when it
 * is the one this browser used last. The cookie says how, never who: showing it
 * reveals nothing about the account.
 */

const COOKIE = 'better-auth.last_used_login_method'

/** The server stores only short tokens (docs/last-login-method.md#the-cookie): anything else was planted, and is ignored. */
const METHOD = /^[a-z0-9_-]{1,64}$/

/**
 * The way this browser last signed in, or null.
 *
 * @example
 * lastUsedLoginMethod() // 'email-otp'
 */
export function lastUsedLoginMethod(): string | null {
  for (const pair of document.cookie.split(';')) {
    const [name, value = ''] = pair.trim().split('=')
    if (name !== COOKIE) continue
    try {
      const method = decodeURIComponent(value)
      return METHOD.test(method) ? method : null
    } catch {
      return null
    }
  }
  return null
}

/**
 * "Last used" beside a sign-in option when the last sign-in was one of `methods`.
 *
 * @example
 * <LastUsed methods={['email', 'username']} />
 */
export function LastUsed({ methods }: { methods: readonly string[] }) {
  const last = lastUsedLoginMethod()
  return last !== null && methods.includes(last) ? <span className="badge">Last used</span> : null
}
