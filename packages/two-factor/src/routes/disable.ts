/**
 * @module
 * POST /two-factor/disable {password, code?} → {status: true} (docs/two-factor.md#turning-it-off).
 * Once two-factor is on, the password is not enough to turn it off: a
 * current code (TOTP or backup code) in `code`, or a session that passed the
 * second factor in the last 10 minutes
 * (docs/two-factor.md#proof-of-the-second-factor). In the transaction that
 * checked the proof: the secret row (and with it the trust version every
 * "trust this device" cookie is bound to) and the backup codes are deleted
 * and the user's flag cleared. A later setup gets a new trust version, so
 * no cookie trusted before comes back to life. This browser's trust cookie
 * is cleared too.
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { TRUST_COOKIE } from '../services/cookies.js'
import { withSecondFactorProof } from '../services/proof.js'
import { findTwoFactor, isEnabled, publishUser, requirePassword, setEnabled } from '../services/state.js'

/**
 * @example
 * await auth.api.disableTwoFactor({ body: { password, code: '123456' }, headers }) // { status: true }
 */
export function disableTwoFactor(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/disable',
    body: z.lazy(() => z.object({ password: z.string(), code: z.string().max(64).optional() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const { session } = ctx
      const userId = session.user.id
      if (!isEnabled(session.user) && !(await findTwoFactor(ctx.db, userId))) throw new AuthError(TwoFactorErrors.TWO_FACTOR_NOT_ENABLED)
      await requirePassword(ctx, userId, ctx.body.password)
      const user = await withSecondFactorProof(ctx, options, session, ctx.body.code, async (tx) => {
        await tx.deleteMany({ model: 'twoFactorBackupCode', where: { field: 'userId', value: userId } })
        await tx.deleteMany({ model: 'twoFactor', where: { field: 'userId', value: userId } })
        return setEnabled(tx, userId, false)
      })
      if (user) await publishUser(ctx, session, user)
      ctx.cookies.delete(TRUST_COOKIE)
      return { status: true }
    },
  })
}
