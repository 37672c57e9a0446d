/**
 * @module
 * POST /two-factor/verify-backup-code {code} (docs/two-factor.md#backup-codes).
 * The code is consumed (its row deleted) by the adapter's atomic consume,
 * under the user's row lock: of parallel uses of one code exactly one
 * succeeds. During a sign-in a right code creates the session; signed in,
 * it only answers (a step-up check by the application).
 */
import { defineEndpoint, publicRow, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { codeHashCandidates, normalizeBackupCode } from '../crypto/codes.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { refuse, resolveActor } from '../services/actor.js'
import { guardedCheck } from '../services/guard.js'
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
      const code = normalizeBackupCode(ctx.body.code)
      const outcome = await guardedCheck(ctx, options, actor.userId, async (tx) => {
        if (code.length !== options.backupCodes.length) return { ok: false }
        const consumed = await tx.consume({
          model: 'twoFactorBackupCode',
          where: [
            { field: 'userId', value: actor.userId },
            { field: 'codeHash', operator: 'in', value: codeHashCandidates(ctx.secrets, 'backup-code', actor.userId, code) },
          ],
        })
        return consumed ? { ok: true } : { ok: false }
      })
      refuse(outcome, actor)
      if (actor.kind === 'sign-in') return completeSignIn(ctx, options, actor.pending, false)
      return { status: true, token: null, user: publicRow(ctx.auth.schema, 'user', actor.session.user as User & Row) }
    },
  })
}
