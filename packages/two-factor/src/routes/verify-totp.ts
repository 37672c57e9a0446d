/**
 * @module
 * POST /two-factor/verify-totp {code, trustDevice?} (docs/two-factor.md#signing-in).
 * During a sign-in (pending cookie): a right code creates the session, as
 * the sign-in would have, and `trustDevice` sets the 30-day trust cookie.
 * Signed in: a right code confirms a setup started by enable and turns
 * two-factor on. Either way each time step is accepted once: the step of
 * the matched code must be later than the last one used (RFC 6238 §5.2),
 * checked and stored under the row lock (services/guard.ts).
 */
import { defineEndpoint, publicRow, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { openSecret } from '../crypto/secret-box.js'
import { matchTotp } from '../crypto/totp.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { refuse, resolveActor } from '../services/actor.js'
import { setTrustCookie } from '../services/cookies.js'
import { guardedCheck } from '../services/guard.js'
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
      const code = ctx.body.code.trim()
      let activated: User | null = null
      const outcome = await guardedCheck(ctx, options, actor.userId, async (tx, row) => {
        const secret = await openSecret(ctx.secrets, row.userId, row.secret)
        if (!secret) return { ok: false }
        const step = await matchTotp(secret, code, ctx.clock.now(), options)
        // A replay: this step, or an earlier one, was already used.
        if (step === null || (row.lastUsedStep !== null && row.lastUsedStep !== undefined && step <= row.lastUsedStep)) return { ok: false }
        // Confirming a setup: turned on under the row lock, so a disable racing it cannot leave the flag on without a secret.
        if (actor.kind === 'session' && !isEnabled(actor.session.user)) activated = await setEnabled(tx, row.userId, true)
        return { ok: true, update: { lastUsedStep: step } }
      })
      refuse(outcome, actor)
      const trustDevice = ctx.body.trustDevice === true
      if (actor.kind === 'sign-in') return completeSignIn(ctx, options, actor.pending, trustDevice)

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
