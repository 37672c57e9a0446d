/**
 * @module
 * POST /two-factor/verify-totp {code, trustDevice?} (docs/two-factor.md#signing-in).
 * During a sign-in (pending cookie): a right code creates the session, as
 * the sign-in would have, and `trustDevice` sets the 30-day trust cookie.
 * Signed in: a right code confirms a setup started by enable and turns
 * two-factor on, or is a step-up check by the application; either way the
 * session records that it passed the second factor (services/proof.ts).
 * Each time step is accepted once: the step of the matched code must be
 * later than the last one used (RFC 6238 §5.2), checked and stored under the
 * row lock (services/guard.ts).
 */
import { defineEndpoint, publicRow, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { refuse, resolveActor } from '../services/actor.js'
import { checkTotp } from '../services/checks.js'
import { setTrustCookie } from '../services/cookies.js'
import { guardedCheck } from '../services/guard.js'
import { markVerified } from '../services/proof.js'
import { completeSignIn, type VerifiedAnswer } from '../services/sign-in.js'
import { findTwoFactor, isEnabled, publishUser, setEnabled } from '../services/state.js'

/**
 * @example
 * await auth.api.verifyTOTP({ body: { code: '123456', trustDevice: true }, headers })
 * // { status: true, token: '…', user } and the session cookies, during a sign-in
 */
export function verifyTOTP(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/verify-totp',
    body: z.lazy(() => z.object({ code: z.string().max(16), trustDevice: z.boolean().optional() })),
    handler: async (ctx): Promise<VerifiedAnswer> => {
      const actor = await resolveActor(ctx)
      let activated: User | null = null
      const outcome = await guardedCheck(ctx, options, actor.userId, 'totp', async (tx, row) => {
        const result = await checkTotp(ctx, options, row, ctx.body.code)
        if (!result.ok || actor.kind !== 'session') return result
        // Confirming a setup: turned on under the row lock, so a disable racing it cannot leave the flag on without a secret.
        if (!isEnabled(actor.session.user)) activated = await setEnabled(tx, row.userId, true)
        await markVerified(ctx, tx, actor.session.session.id, 'totp')
        return result
      })
      refuse(outcome, actor)
      const trustDevice = ctx.body.trustDevice === true
      if (actor.kind === 'sign-in') return completeSignIn(ctx, options, actor.pending, 'totp', trustDevice)

      const user: User = activated ?? actor.session.user
      if (activated) await publishUser(ctx, actor.session, activated)
      if (trustDevice) {
        const row = await findTwoFactor(ctx.db, user.id)
        if (row) setTrustCookie(ctx, user.id, row.trustVersion, options.trustDeviceMaxAge)
      }
      return { status: true, token: null, user: publicRow(ctx.auth.schema, 'user', user as User & Row) }
    },
  })
}
