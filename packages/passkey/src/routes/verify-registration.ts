/**
 * @module
 * POST /passkey/verify-registration {response, name?, password?}
 * (docs/passkeys.md#registering-a-passkey): the browser's answer to the
 * register options. First the proof a passkey takes besides the fresh
 * session (registration-proof.ts): the recent second factor of an account
 * that has one, else the password (`password`) of an account that has one.
 * It is checked before the challenge is used, so a wrong or missing password
 * can be given again with the same answer, and no credential the
 * authenticator just made is lost to a typo. Then it consumes this browser's register challenge (single
 * use, 5 minutes, issued to the same signed-in user), verifies the
 * attestation with @simplewebauthn/server against the configured origins
 * and relying party id (user presence always, user verification unless
 * `userVerification: 'preferred'`, docs/passkeys.md#security), and stores the credential. A credential already registered
 * (here or to someone else) is refused by the unique credential id hash.
 */
import { AuthError, defineEndpoint, freshSessionMiddleware, isUniqueViolation, sha256Base64url } from '@gatehouse/core'
import { z } from 'zod'
import { consumeChallenge, matchesChallenge } from '../challenge.js'
import { toBase64url } from '../encoding.js'
import { PasskeyErrors } from '../errors.js'
import { relyingParty, type ResolvedPasskeyOptions } from '../options.js'
import { requireRegistrationProof } from '../registration-proof.js'
import { asRegistrationResponse, registrationResponse } from '../responses.js'
import { publicPasskey, type PasskeyRow } from '../schema.js'
import { webauthn } from '../webauthn.js'
import { challengeRefusal, reasonOf } from './refuse.js'

const body = z.lazy(() =>
  z.object({ response: registrationResponse, name: z.string().trim().max(256).optional(), password: z.string().max(1024).optional() }),
)

/**
 * @example
 * const credential = await startRegistration({ optionsJSON }) // @simplewebauthn/browser
 * // POST /api/auth/passkey/verify-registration { response: credential, name: 'Laptop', password } → the new passkey
 */
export function verifyRegistration(options: ResolvedPasskeyOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/passkey/verify-registration',
    body,
    use: [freshSessionMiddleware],
    handler: async (ctx) => {
      const { user } = ctx.session
      await requireRegistrationProof(ctx, ctx.session, ctx.body.password ?? null)
      const attempt = await consumeChallenge(ctx, ctx.db, 'register')
      if (!attempt.ok) throw challengeRefusal(attempt)
      // Started by another user in this browser (signed out and in since): not this user's challenge.
      if (attempt.claims.userId !== user.id || !attempt.claims.userHandle) throw new AuthError(PasskeyErrors.CHALLENGE_NOT_FOUND)

      const rp = relyingParty(ctx.auth, options)
      const { verifyRegistrationResponse } = await webauthn()
      let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>
      try {
        verification = await verifyRegistrationResponse({
          response: asRegistrationResponse(ctx.body.response),
          expectedChallenge: matchesChallenge(attempt.claims),
          expectedOrigin: rp.origins,
          expectedRPID: rp.id,
          requireUserVerification: options.userVerification === 'required',
        })
      } catch (error) {
        ctx.logger.info('passkey: registration refused', { reason: reasonOf(error) })
        throw new AuthError(PasskeyErrors.FAILED_TO_VERIFY_REGISTRATION)
      }
      if (!verification.verified) throw new AuthError(PasskeyErrors.FAILED_TO_VERIFY_REGISTRATION)

      const { credential, credentialDeviceType, credentialBackedUp, aaguid } = verification.registrationInfo
      try {
        const row = await ctx.db.create<PasskeyRow>({
          model: 'passkey',
          data: {
            userId: user.id,
            name: ctx.body.name || null,
            credentialID: credential.id,
            credentialIDHash: sha256Base64url(credential.id),
            publicKey: toBase64url(credential.publicKey),
            counter: credential.counter,
            deviceType: credentialDeviceType,
            backedUp: credentialBackedUp,
            transports: credential.transports?.length ? credential.transports.join(',') : null,
            aaguid,
            userHandle: attempt.claims.userHandle,
          },
        })
        return publicPasskey(row)
      } catch (error) {
        if (isUniqueViolation(error)) throw new AuthError(PasskeyErrors.PASSKEY_ALREADY_REGISTERED)
        throw error
      }
    },
  })
}
