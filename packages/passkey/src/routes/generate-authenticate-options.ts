/**
 * @module
 * GET /passkey/generate-authenticate-options (docs/passkeys.md#signing-in):
 * the options for `navigator.credentials.get()`, for anyone. No credential
 * list is sent: the browser offers the discoverable credentials it holds
 * for this relying party, in a dialog or in the autofill menu (conditional
 * UI), and nothing in the answer tells whether an account exists or has
 * passkeys. Rate-limited like the other sign-in routes.
 */
import { defineEndpoint } from '@gatehouse/core'
import { startChallenge } from '../challenge.js'
import { fromBase64url } from '../encoding.js'
import { relyingParty, type ResolvedPasskeyOptions } from '../options.js'
import { webauthn } from '../webauthn.js'

/**
 * @example
 * // GET /api/auth/passkey/generate-authenticate-options
 * // → { challenge, rpId, allowCredentials: [], userVerification: 'required', timeout } and a passkey_challenge cookie
 */
export function generateAuthenticateOptions(options: ResolvedPasskeyOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/passkey/generate-authenticate-options',
    handler: async (ctx) => {
      const { generateAuthenticationOptions } = await webauthn()
      const challenge = await startChallenge(ctx, { purpose: 'authenticate', userId: null, userHandle: null }, options.challengeExpiresIn)
      return generateAuthenticationOptions({
        rpID: relyingParty(ctx.auth, options).id,
        challenge: fromBase64url(challenge),
        allowCredentials: [],
        userVerification: options.userVerification,
        timeout: options.challengeExpiresIn * 1000,
      })
    },
  })
}
