/**
 * @module
 * GET /passkey/generate-register-options?authenticatorAttachment
 * (docs/passkeys.md#registering-a-passkey): the options for
 * `navigator.credentials.create()`. Needs a fresh session: a stolen but
 * older session cookie cannot plant a passkey for lasting access. On an
 * account with a second factor on, also a session that passed it recently
 * (403 `SECOND_FACTOR_REQUIRED` before any ceremony); the password of an
 * account with one is asked at verify-registration, as a GET carries no
 * body (registration-proof.ts). The
 * user's existing passkeys are excluded (one credential per authenticator),
 * a resident key is preferred, user verification is asked for as configured
 * (required by default, docs/passkeys.md#security), and no attestation is
 * asked for. The user id is a random 32-byte handle kept with the user's
 * passkeys, never the account id (docs/passkeys.md#user-handles).
 */
import { defineEndpoint, freshSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { startChallenge } from '../challenge.js'
import { fromBase64url, toBase64url } from '../encoding.js'
import { relyingParty, type ResolvedPasskeyOptions } from '../options.js'
import { requireRegistrationProof } from '../registration-proof.js'
import { knownTransports } from '../responses.js'
import type { PasskeyRow } from '../schema.js'
import { webauthn } from '../webauthn.js'

/** 32 bytes: inside the 1 to 64 bytes WebAuthn allows for a user handle (W3C WebAuthn §5.4.3). */
export const USER_HANDLE_BYTES = 32

const query = z.lazy(() => z.object({ authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional() }))

/**
 * @example
 * // GET /api/auth/passkey/generate-register-options  (with a fresh session cookie)
 * // → { challenge, rp: { id, name }, user: { id, name, displayName }, excludeCredentials, ... } and a passkey_challenge cookie
 */
export function generateRegisterOptions(options: ResolvedPasskeyOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/passkey/generate-register-options',
    query,
    use: [freshSessionMiddleware],
    handler: async (ctx) => {
      const { user } = ctx.session
      await requireRegistrationProof(ctx, ctx.session, undefined)
      const passkeys = await ctx.db.findMany<PasskeyRow>({ model: 'passkey', where: { field: 'userId', value: user.id } })
      // One handle per user while they have passkeys, so authenticators file new credentials under the same account.
      const userHandle = passkeys[0]?.userHandle ?? toBase64url(ctx.random.bytes(USER_HANDLE_BYTES))
      const { generateRegistrationOptions } = await webauthn()
      const challenge = await startChallenge(ctx, { purpose: 'register', userId: user.id, userHandle }, options.challengeExpiresIn)
      const rp = relyingParty(ctx.auth, options)
      const attachment = ctx.query.authenticatorAttachment
      return generateRegistrationOptions({
        rpID: rp.id,
        rpName: rp.name,
        userName: user.email,
        userDisplayName: user.name || user.email,
        userID: fromBase64url(userHandle),
        challenge: fromBase64url(challenge),
        timeout: options.challengeExpiresIn * 1000,
        attestationType: 'none',
        excludeCredentials: passkeys.map((passkey) => ({ id: passkey.credentialID, transports: knownTransports(passkey.transports) })),
        authenticatorSelection: {
          residentKey: 'preferred',
          userVerification: options.userVerification,
          ...(attachment ? { authenticatorAttachment: attachment } : {}),
        },
      })
    },
  })
}
