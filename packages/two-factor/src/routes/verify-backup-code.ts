/**
 * @module
 * POST /two-factor/verify-backup-code {code} (docs/two-factor.md#backup-codes).
 * The code is consumed (its row deleted) by the adapter's atomic consume,
 * under the user's row lock: of parallel uses of one code exactly one
 * succeeds. Backup codes have their own lockout budget (services/guard.ts):
 * a lockout of the authenticator codes leaves them usable. During a sign-in
 * a right code creates the session; signed in, it answers and the session
 * records that it passed the second factor (a step-up check by the
 * application, services/proof.ts).
 */
import { defineEndpoint, publicRow, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { refuse, resolveActor } from '../services/actor.js'
import { checkBackupCode } from '../services/checks.js'
import { guardedCheck } from '../services/guard.js'
import { markVerified } from '../services/proof.js'
import { completeSignIn, type VerifiedAnswer } from '../services/sign-in.js'

/**
 * @example
 * await auth.api.verifyBackupCode({ body: { code: 'k7mq2x9fpa' }, headers })
 */
export function verifyBackupCode(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/verify-backup-code',
    body: z.lazy(() => z.object({ code: z.string().max(64) })),
    handler: async (ctx): Promise<VerifiedAnswer> => {
      const actor = await resolveActor(ctx)
      const outcome = await guardedCheck(ctx, options, actor.userId, 'backup-code', async (tx) => {
        const result = await checkBackupCode(ctx, options, tx, actor.userId, ctx.body.code)
        if (result.ok && actor.kind === 'session') await markVerified(ctx, tx, actor.session.session.id, 'backup-code')
        return result
      })
      refuse(outcome, actor)
      if (actor.kind === 'sign-in') return completeSignIn(ctx, options, actor.pending, 'backup-code', false)
      return { status: true, token: null, user: publicRow(ctx.auth.schema, 'user', actor.session.user as User & Row) }
    },
  })
}
