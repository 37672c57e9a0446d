/**
 * @module
 * POST /two-factor/send-otp → {status: true} (docs/two-factor.md#email-codes).
 * Mails a fresh code (the configured number of digits) to the pending or
 * signed-in user through `otpOptions.sendOTP`, only when that user chose
 * emailed codes (enable-otp): otherwise 400 "Email codes are not enabled for
 * this account" and no mail. Whoever reads the mailbox can reset the
 * password; mailing codes to a user who only enrolled an authenticator app
 * would let the mailbox alone past it. Only the code's keyed hash is stored,
 * in core's verification table, for `expiresIn` seconds (5 minutes); a new
 * code replaces the previous one. A locked-out user gets no mail. Without
 * `otpOptions` the route answers 400.
 */
import { AuthError, deliverMail, defineEndpoint, type Row, type User } from '@gatehouse/core'
import { generateOtp, hashCode } from '../crypto/codes.js'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { resolveActor } from '../services/actor.js'
import { otpIdentifier } from '../services/email-otp.js'
import { isLockedOut } from '../services/guard.js'
import { findTwoFactor, otpChosen } from '../services/state.js'

/**
 * @example
 * await auth.api.sendTwoFactorOTP({ headers }) // { status: true }; sendOTP({ user, otp }) was called
 */
export function sendTwoFactorOTP(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/send-otp',
    handler: async (ctx) => {
      const otp = options.otp
      if (!otp) throw new AuthError(TwoFactorErrors.OTP_NOT_CONFIGURED)
      const actor = await resolveActor(ctx)
      const row = await findTwoFactor(ctx.db, actor.userId)
      if (!row) throw new AuthError(TwoFactorErrors.TWO_FACTOR_NOT_ENABLED)
      if (!otpChosen(row)) throw new AuthError(TwoFactorErrors.OTP_NOT_ENABLED)
      if (isLockedOut(row, ctx.clock.now())) throw new AuthError(TwoFactorErrors.TOO_MANY_ATTEMPTS)
      const user =
        actor.kind === 'session' ? actor.session.user : await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: actor.userId } })
      if (!user) throw new AuthError(TwoFactorErrors.NO_PENDING_SIGN_IN)

      const code = generateOtp(ctx.random, options.digits)
      const identifier = otpIdentifier(user.id)
      const created = await ctx.db.transaction(async (tx) => {
        await tx.deleteMany({ model: 'verification', where: { field: 'identifier', value: identifier } })
        return tx.create({
          model: 'verification',
          data: {
            identifier,
            value: JSON.stringify({ hash: hashCode(ctx.secrets, 'otp', user.id, code), attempts: 0 }),
            expiresAt: new Date(ctx.clock.now().getTime() + otp.expiresIn * 1000),
          },
        })
      })
      try {
        await deliverMail(ctx, 'two-factor', otp.send, { user, otp: code })
      } catch (error) {
        await ctx.db.delete({ model: 'verification', where: { field: 'id', value: String(created.id) } })
        throw error
      }
      return { status: true }
    },
  })
}
