/**
 * @module
 * POST /two-factor/disable {password} → {status: true} (docs/two-factor.md#turning-it-off).
 * In one transaction: the secret row (and with it the trust version every
 * "trust this device" cookie is bound to) and the backup codes are deleted
 * and the user's flag cleared. A later setup gets a new trust version, so
 * no cookie trusted before comes back to life. This browser's trust cookie
 * is cleared too.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { TwoFactorErrors } from '../errors.js'
import { TRUST_COOKIE } from '../services/cookies.js'
import { findTwoFactor, isEnabled, publishUser, requirePassword, setEnabled } from '../services/state.js'

/**
 * @example
 * await auth.api.disableTwoFactor({ body: { password }, headers }) // { status: true }
 */
export function disableTwoFactor() {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/disable',
    body: z.lazy(() => z.object({ password: z.string() })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const { session } = ctx
      const userId = session.user.id
      if (!isEnabled(session.user) && !(await findTwoFactor(ctx.db, userId))) throw new AuthError(TwoFactorErrors.TWO_FACTOR_NOT_ENABLED)
      await requirePassword(ctx, userId, ctx.body.password)
      const user = await ctx.db.transaction(async (tx) => {
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
