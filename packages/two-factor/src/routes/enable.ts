/**
 * @module
 * POST /two-factor/enable {password} → {totpURI, backupCodes}
 * (docs/two-factor.md#turning-it-on). Starts a setup: a fresh 20-byte secret
 * (160 bits, RFC 4226 §4's recommended length) from the CSPRNG, stored
 * encrypted, and fresh backup codes, stored hashed, in one transaction.
 * Two-factor is not on yet: the first valid code sent to verify-totp turns it
 * on, so a user who never scanned the QR code cannot lock themselves out.
 * Starting again before that replaces the setup; once on, disable first.
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { sealSecret } from '../crypto/secret-box.js'
import { totpURI } from '../crypto/totp.js'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { isEnabled, replaceBackupCodes, requirePassword, TRUST_VERSION_LENGTH } from '../services/state.js'

export const SECRET_BYTES = 20

/**
 * @example
 * const { totpURI, backupCodes } = await auth.api.enableTwoFactor({ body: { password }, headers })
 */
export function enableTwoFactor(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/enable',
    body: z.lazy(() => z.object({ password: z.string() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const { user } = ctx.session
      if (isEnabled(user)) throw new AuthError(TwoFactorErrors.TWO_FACTOR_ALREADY_ENABLED)
      await requirePassword(ctx, user.id, ctx.body.password)
      const secret = ctx.random.bytes(SECRET_BYTES)
      const sealed = await sealSecret(ctx.secrets, user.id, secret, ctx.random.bytes(12))
      const backupCodes = await ctx.db.transaction(async (tx) => {
        // Parallel enables of one user queue here instead of racing for the unique userId.
        await tx.lock({ model: 'user', where: { field: 'id', value: user.id } })
        await tx.deleteMany({ model: 'twoFactor', where: { field: 'userId', value: user.id } })
        await tx.create({
          model: 'twoFactor',
          data: { userId: user.id, secret: sealed, lastUsedStep: null, failedAttempts: 0, lockedUntil: null, trustVersion: ctx.random.string(TRUST_VERSION_LENGTH) },
        })
        return replaceBackupCodes(ctx, tx, options, user.id)
      })
      const issuer = options.issuer ?? ctx.options.appName ?? 'Gatehouse'
      return {
        totpURI: await totpURI(secret, { issuer, account: user.email, digits: options.digits, period: options.period }),
        backupCodes,
      }
    },
  })
}
