/**
 * @module
 * `passkey(options)`: WebAuthn passkeys (docs/passkeys.md): register, list,
 * rename, delete, and sign in. One table (`passkey`); challenges live in
 * core's verification table under their own prefix. The sign-in routes get
 * a sign-in rate limit (10 requests per minute and client by default), the
 * registration routes a tighter one than the default. Loading the plugin does not
 * load @simplewebauthn/server: the routes import it on first use.
 */
import { definePlugin, type AuthContext, type CredentialsRevoked } from '@gatehouse/core'
import { PasskeyErrors } from './errors.js'
import { resolveOptions, type PasskeyOptions } from './options.js'
import { passkeyEndpoints } from './routes/index.js'
import { passkeySchema } from './schema.js'
import { enrolledSources } from './second-factor.js'

const SIGN_IN_PATHS = new Set(['/passkey/generate-authenticate-options', '/passkey/verify-authentication'])
const REGISTER_PATHS = new Set(['/passkey/generate-register-options', '/passkey/verify-registration'])

/**
 * Which revocations end the user's passkeys (docs/passkeys.md#when-passkeys-end):
 *
 * - a first proof of the mailbox into an account whose address was not yet
 *   verified: whoever held the account then (someone who signed up with
 *   another person's address) must not keep a way in once the owner proved
 *   the address;
 * - a password reset of an account with a second factor on (another
 *   plugin's `secondFactor`): a reset is how an owner takes the account
 *   back, and a passkey planted by whoever held it would skip the second
 *   step for good. The owner registers theirs again, with the second factor.
 *
 * Other revocations (a reset without a second factor, a ban, sign-out
 * everywhere) keep passkeys: they are the user's own authenticators, and a
 * ban already refuses every sign-in.
 */
async function endPasskeys(event: CredentialsRevoked, auth: AuthContext): Promise<void> {
  const ends =
    event.reason === 'email-proven' ||
    (event.reason === 'password-reset' && (await enrolledSources(auth.plugins, event.db, event.userId)).length > 0)
  if (!ends) return
  await event.db.deleteMany({ model: 'passkey', where: { field: 'userId', value: event.userId } })
}

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   plugins: [passkey({ rpName: 'Example' })], // rpID app.example.com, origin https://app.example.com
 * })
 */
export function passkey(options: PasskeyOptions = {}) {
  const resolved = resolveOptions(options)
  return definePlugin({
    id: 'passkey',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'passkeyClient', from: '@gatehouse/passkey/client' },
    schema: passkeySchema,
    endpoints: passkeyEndpoints(resolved),
    errors: PasskeyErrors,
    onCredentialsRevoked: endPasskeys,
    rateLimit: [
      { pathMatcher: (path: string) => SIGN_IN_PATHS.has(path), window: resolved.rateLimit.window, max: resolved.rateLimit.max },
      { pathMatcher: (path: string) => REGISTER_PATHS.has(path), window: 60, max: 10 },
    ],
  })
}
