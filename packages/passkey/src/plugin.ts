/**
 * @module
 * `passkey(options)`: WebAuthn passkeys (docs/passkeys.md): register, list,
 * rename, delete, and sign in. One table (`passkey`); challenges live in
 * core's verification table under their own prefix. The sign-in routes get
 * a sign-in rate limit (10 requests per minute and client by default), the
 * registration routes a tighter one than the default. Loading the plugin does not
 * load @simplewebauthn/server: the routes import it on first use.
 */
import { definePlugin } from '@gatehouse/core'
import { PasskeyErrors } from './errors.js'
import { resolveOptions, type PasskeyOptions } from './options.js'
import { passkeyEndpoints } from './routes/index.js'
import { passkeySchema } from './schema.js'

const SIGN_IN_PATHS = new Set(['/passkey/generate-authenticate-options', '/passkey/verify-authentication'])
const REGISTER_PATHS = new Set(['/passkey/generate-register-options', '/passkey/verify-registration'])

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
    schema: passkeySchema,
    endpoints: passkeyEndpoints(resolved),
    errors: PasskeyErrors,
    rateLimit: [
      { pathMatcher: (path: string) => SIGN_IN_PATHS.has(path), window: resolved.rateLimit.window, max: resolved.rateLimit.max },
      { pathMatcher: (path: string) => REGISTER_PATHS.has(path), window: 60, max: 10 },
    ],
  })
}
