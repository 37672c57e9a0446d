/**
 * @module
 * POST /two-factor/enable-otp {password, code?} → {status: true}
 * (docs/two-factor.md#email-codes): the user chooses emailed codes as a
 * second way past the second step of a sign-in, next to the authenticator
 * app. Until then send-otp mails them nothing. Choosing them makes the
 * mailbox, which can also reset the password, enough to sign in, so it
 * takes what turning two-factor off takes: the password and proof of the
 * second factor, a TOTP or backup code in `code` or a session that passed
 * one in the last 10 minutes, never an emailed code
 * (docs/two-factor.md#proof-of-the-second-factor). Only with two-factor on
 * (400 "Two-factor authentication is not enabled") and `otpOptions`
 * configured (400 "Email codes are not configured").
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { withSecondFactorProof } from '../services/proof.js'
import { findTwoFactor, isEnabled, requirePassword } from '../services/state.js'

/**
 * @example
 * await auth.api.enableTwoFactorOTP({ body: { password, code: '123456' }, headers }) // { status: true }
 */
export function enableTwoFactorOTP(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/enable-otp',
    body: z.lazy(() => z.object({ password: z.string(), code: z.string().max(64).optional() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      if (!options.otp) throw new AuthError(TwoFactorErrors.OTP_NOT_CONFIGURED)
      const { session } = ctx
      const userId = session.user.id
      // A setup not yet confirmed has no second factor to add a way past.
      if (!isEnabled(session.user) || !(await findTwoFactor(ctx.db, userId))) throw new AuthError(TwoFactorErrors.TWO_FACTOR_NOT_ENABLED)
      await requirePassword(ctx, userId, ctx.body.password)
      const chosen = await withSecondFactorProof(ctx, options, session, ctx.body.code, async (tx, row) =>
        // Turned off since the first look: nothing to add email codes to.
        row ? tx.update({ model: 'twoFactor', where: { field: 'id', value: row.id }, update: { otpEnabled: true } }) : null,
      )
      if (!chosen) throw new AuthError(TwoFactorErrors.TWO_FACTOR_NOT_ENABLED)
      return { status: true }
    },
  })
}
