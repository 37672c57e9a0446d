/**
 * @module
 * POST /two-factor/generate-backup-codes {password, code?} → {status: true, backupCodes}
 * (docs/two-factor.md#backup-codes): a new set replaces the old one in one
 * transaction; the old codes stop working at once. Fresh backup codes are a
 * lasting way past the second step, so once two-factor is on the password
 * is not enough: a current code (TOTP or backup code) in `code`, or a session
 * that passed the second factor in the last 10 minutes
 * (docs/two-factor.md#proof-of-the-second-factor). The codes are replaced in
 * the transaction that checked the proof.
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { withSecondFactorProof } from '../services/proof.js'
import { findTwoFactor, replaceBackupCodes, requirePassword } from '../services/state.js'

/**
 * @example
 * const { backupCodes } = await auth.api.generateBackupCodes({ body: { password, code: '123456' }, headers })
 */
export function generateBackupCodes(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/generate-backup-codes',
    body: z.lazy(() => z.object({ password: z.string(), code: z.string().max(64).optional() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const userId = ctx.session.user.id
      if (!(await findTwoFactor(ctx.db, userId))) throw new AuthError(TwoFactorErrors.TWO_FACTOR_NOT_ENABLED)
      await requirePassword(ctx, userId, ctx.body.password)
      const backupCodes = await withSecondFactorProof(ctx, options, ctx.session, ctx.body.code, async (tx, row) =>
        // Disabled since the first look: no setup to give codes to.
        row ? replaceBackupCodes(ctx, tx, options, userId) : null,
      )
      if (!backupCodes) throw new AuthError(TwoFactorErrors.TWO_FACTOR_NOT_ENABLED)
      return { status: true, backupCodes }
    },
  })
}
