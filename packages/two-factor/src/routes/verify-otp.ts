/**
 * @module
 * POST /two-factor/verify-otp {code} (docs/two-factor.md#email-codes). Under
 * the user's row lock: the mailed code must exist, be unexpired and match;
 * it is then deleted (single use). A wrong code counts against the user
 * (services/guard.ts) and against the code: after 3 wrong tries the code
 * itself is deleted and a new one must be sent. During a sign-in a right
 * code creates the session.
 */
import { defineEndpoint, publicRow, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { refuse, resolveActor } from '../services/actor.js'
import { checkOtp } from '../services/email-otp.js'
import { guardedCheck } from '../services/guard.js'
import { completeSignIn, type VerifiedAnswer } from '../services/sign-in.js'

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
      const code = ctx.body.code.trim()
      const outcome = await guardedCheck(ctx, options, actor.userId, async (tx) => ({ ok: await checkOtp(ctx, tx, actor.userId, code) }))
      refuse(outcome, actor)
      if (actor.kind === 'sign-in') return completeSignIn(ctx, options, actor.pending, false)
      return { status: true, token: null, user: publicRow(ctx.auth.schema, 'user', actor.session.user as User & Row) }
    },
  })
}
