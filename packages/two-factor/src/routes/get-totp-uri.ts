/**
 * @module
 * POST /two-factor/get-totp-uri {password} → {totpURI} (docs/two-factor.md#routes):
 * the otpauth:// URI again, to add the same secret to another authenticator
 * app. The password is asked again: the URI holds the secret itself.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { openSecret } from '../crypto/secret-box.js'
import { totpURI } from '../crypto/totp.js'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { findTwoFactor, requirePassword } from '../services/state.js'

/**
 * @example
 * const { totpURI } = await auth.api.getTOTPURI({ body: { password }, headers })
 */
export function getTOTPURI(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/get-totp-uri',
    body: z.lazy(() => z.object({ password: z.string() })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const { user } = ctx.session
      const row = await findTwoFactor(ctx.db, user.id)
      if (!row) throw new AuthError(TwoFactorErrors.TOTP_NOT_SET_UP)
      await requirePassword(ctx, user.id, ctx.body.password)
      const secret = await openSecret(ctx.secrets, user.id, row.secret)
      // Sealed under a secret no longer configured: only a new setup helps.
      if (!secret) throw new AuthError(TwoFactorErrors.TOTP_NOT_SET_UP)
      const issuer = options.issuer ?? ctx.options.appName ?? 'Gatehouse'
      return { totpURI: await totpURI(secret, { issuer, account: user.email, digits: options.digits, period: options.period }) }
    },
  })
}
