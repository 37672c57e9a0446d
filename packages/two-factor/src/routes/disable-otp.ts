/**
 * @module
 * POST /two-factor/disable-otp {password} → {status: true}
 * (docs/two-factor.md#email-codes): emailed codes no longer pass the second
 * step; a code already mailed is deleted with the choice, in one
 * transaction. Taking a way in away needs the password only: it leaves the
 * authenticator app and the backup codes as they were.
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { TwoFactorErrors } from '../errors.js'
import { otpIdentifier } from '../services/email-otp.js'
import { findTwoFactor, requirePassword } from '../services/state.js'

/**
 * @example
 * await auth.api.disableTwoFactorOTP({ body: { password }, headers }) // { status: true }
 */
export function disableTwoFactorOTP() {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/disable-otp',
    body: z.lazy(() => z.object({ password: z.string() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const userId = ctx.session.user.id
      if (!(await findTwoFactor(ctx.db, userId))) throw new AuthError(TwoFactorErrors.TWO_FACTOR_NOT_ENABLED)
      await requirePassword(ctx, userId, ctx.body.password)
      await ctx.db.transaction(async (tx) => {
        await tx.update({ model: 'twoFactor', where: { field: 'userId', value: userId }, update: { otpEnabled: false } })
        await tx.deleteMany({ model: 'verification', where: { field: 'identifier', value: otpIdentifier(userId) } })
      })
      return { status: true }
    },
  })
}
