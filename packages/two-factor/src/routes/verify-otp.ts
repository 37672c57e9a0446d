/**
 * @module
 * POST /two-factor/verify-otp {code} (docs/two-factor.md#email-codes). Only
 * for a user who chose emailed codes (enable-otp); anyone else gets 400
 * "Email codes are not enabled for this account", checked again under the
 * row lock. Under the user's row lock: the mailed code must exist, be
 * unexpired and match; it is then deleted (single use). A wrong code counts
 * against the user (services/guard.ts: the budget of one-time codes, shared
 * with TOTP) and against the code: after 3 wrong tries the code itself is
 * deleted and a new one must be sent. During a sign-in a right code creates
 * the session; signed in, the session records that it passed an emailed
 * code, which is never proof for the settings routes (services/proof.ts).
 */
import { AuthError, defineEndpoint, publicRow, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { refuse, resolveActor } from '../services/actor.js'
import { checkOtp } from '../services/email-otp.js'
import { guardedCheck } from '../services/guard.js'
import { markVerified } from '../services/proof.js'
import { completeSignIn, type VerifiedAnswer } from '../services/sign-in.js'
import { findTwoFactor, otpChosen } from '../services/state.js'

/**
 * @example
 * await auth.api.verifyTwoFactorOTP({ body: { code: '042917' }, headers })
 */
export function verifyTwoFactorOTP(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/verify-otp',
    body: z.lazy(() => z.object({ code: z.string().max(16) })),
    handler: async (ctx): Promise<VerifiedAnswer> => {
      const actor = await resolveActor(ctx)
      const found = await findTwoFactor(ctx.db, actor.userId)
      if (found && !otpChosen(found)) throw new AuthError(TwoFactorErrors.OTP_NOT_ENABLED)
      const code = ctx.body.code.trim()
      const outcome = await guardedCheck(ctx, options, actor.userId, 'otp', async (tx, row) => {
        // Email codes turned off since the first look: no mailed code passes, whatever is left of one.
        const ok = otpChosen(row) && (await checkOtp(ctx, tx, actor.userId, code))
        if (ok && actor.kind === 'session') await markVerified(ctx, tx, actor.session.session.id, 'otp')
        return { ok }
      })
      refuse(outcome, actor)
      if (actor.kind === 'sign-in') return completeSignIn(ctx, options, actor.pending, 'otp', false)
      return { status: true, token: null, user: publicRow(ctx.auth.schema, 'user', actor.session.user as User & Row) }
    },
  })
}
