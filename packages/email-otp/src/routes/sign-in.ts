/**
 * @module
 * POST /sign-in/email-otp `{ email, otp, name?, image?, rememberMe?, ...fields }`
 * (docs/email-otp.md#signing-in): the code proves the mailbox. In the code's
 * transaction the account is found, or created verified when sign-up is
 * allowed (with the app's additional user fields); an existing unverified
 * account is proven (`proveMailbox`: its first proof ends what an earlier
 * registrant set up). Then core's first-factor end
 * (`completeFirstFactor`, amr `email`): a user with a second factor gets
 * `{ twoFactorRedirect: true }` and no session until the code of that
 * factor; a reset that committed meanwhile refuses the session.
 *
 * Every refusal of the code is the code's own error (INVALID_OTP,
 * OTP_EXPIRED, TOO_MANY_ATTEMPTS); an address with no account and sign-up
 * off is INVALID_OTP, as no code was ever sent there.
 */
import {
  AuthError,
  completeFirstFactor,
  CoreErrors,
  defineEndpoint,
  isUniqueViolation,
  MAX_IMAGE_LENGTH,
  MAX_NAME_LENGTH,
  normalizeEmail,
  pickAdditionalFields,
  proveMailbox,
  publicRow,
  type Row,
  type User,
} from '@gatehouse/core'
import { z } from 'zod'
import { codeTarget, useCode } from '../codes.js'
import { EmailOTPErrors } from '../errors.js'
import type { ResolvedEmailOTPOptions } from '../options.js'

export function signInEmailOTP(options: ResolvedEmailOTPOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/sign-in/email-otp',
    body: z.lazy(() =>
      z
        .object({
          email: z.string(),
          otp: z.string(),
          name: z.string().max(MAX_NAME_LENGTH).optional(),
          image: z.string().max(MAX_IMAGE_LENGTH).optional(),
          rememberMe: z.boolean().optional(),
        })
        .loose(),
    ),
    handler: async (ctx) => {
      const { body, auth } = ctx
      const email = normalizeEmail(body.email)
      if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)
      const extra = pickAdditionalFields(ctx.options.user?.additionalFields, body, 'create')
      const user = await useCode(ctx, options, codeTarget('sign-in', email), body.otp, async (tx) => {
        const existing = await tx.findOne<User & Row>({ model: 'user', where: { field: 'email', value: email } })
        if (existing) {
          const proven = await proveMailbox(auth, { user: existing, db: tx })
          if (!proven) throw new AuthError(EmailOTPErrors.INVALID_OTP)
          return proven as User & Row
        }
        if (options.disableSignUp) throw new AuthError(EmailOTPErrors.INVALID_OTP)
        return tx
          .create<User & Row>({ model: 'user', data: { ...extra, email, name: body.name ?? '', image: body.image ?? null, emailVerified: true } })
          .catch((error: unknown) => {
            // Created meanwhile by another way in (a sign-up): the code stays usable and signs that account in next time.
            if (isUniqueViolation(error)) throw new AuthError(EmailOTPErrors.INVALID_OTP)
            throw error
          })
      })
      const outcome = await completeFirstFactor(ctx, user, { amr: ['email'], rememberMe: body.rememberMe !== false }).catch((error: unknown) => {
        if (error instanceof AuthError && error.code === 'CREDENTIALS_CHANGED') throw new AuthError(EmailOTPErrors.INVALID_OTP)
        throw error
      })
      if (outcome.challenge) return Response.json(outcome.challenge)
      return { token: outcome.session.token, user: publicRow(auth.schema, 'user', user) }
    },
  })
}
