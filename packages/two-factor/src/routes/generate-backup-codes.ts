/**
 * @module
 * POST /two-factor/generate-backup-codes {password} → {status: true, backupCodes}
 * (docs/two-factor.md#backup-codes): a new set replaces the old one in one
 * transaction; the old codes stop working at once.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { findTwoFactor, replaceBackupCodes, requirePassword } from '../services/state.js'

/**
 * @example
 * const { backupCodes } = await auth.api.generateBackupCodes({ body: { password }, headers })
 */
export function generateBackupCodes(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/generate-backup-codes',
    body: z.lazy(() => z.object({ password: z.string() })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const userId = ctx.session.user.id
      if (!(await findTwoFactor(ctx.db, userId))) throw new AuthError(TwoFactorErrors.TWO_FACTOR_NOT_ENABLED)
      await requirePassword(ctx, userId, ctx.body.password)
      const backupCodes = await ctx.db.transaction((tx) => replaceBackupCodes(ctx, tx, options, userId))
      return { status: true, backupCodes }
    },
  })
}
