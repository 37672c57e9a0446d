/**
 * @module
 * POST /two-factor/get-totp-uri {password, code?} → {totpURI}
 * (docs/two-factor.md#proof-of-the-second-factor): the otpauth:// URI again,
 * to add the same secret to another authenticator app. The URI holds the
 * secret itself, so once two-factor is on the password is not enough: a
 * current code (TOTP or backup code) in `code`, or a session that passed the
 * second factor in the last 10 minutes (services/proof.ts). During a setup
 * not yet confirmed, the password alone, as for enable.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { openSecret } from '../crypto/secret-box.js'
import { totpURI } from '../crypto/totp.js'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { withSecondFactorProof } from '../services/proof.js'
import { findTwoFactor, requirePassword } from '../services/state.js'

/**
 * @example
 * const { totpURI } = await auth.api.getTOTPURI({ body: { password, code: '123456' }, headers })
 */
export function getTOTPURI(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/get-totp-uri',
    body: z.lazy(() => z.object({ password: z.string(), code: z.string().max(64).optional() })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const { user } = ctx.session
      if (!(await findTwoFactor(ctx.db, user.id))) throw new AuthError(TwoFactorErrors.TOTP_NOT_SET_UP)
      await requirePassword(ctx, user.id, ctx.body.password)
      const sealed = await withSecondFactorProof(ctx, options, ctx.session, ctx.body.code, async (_tx, row) => row?.secret ?? null)
      const secret = sealed ? await openSecret(ctx.secrets, user.id, sealed) : null
      // Gone since (disabled meanwhile), or sealed under a secret no longer configured: only a new setup helps.
      if (!secret) throw new AuthError(TwoFactorErrors.TOTP_NOT_SET_UP)
      const issuer = options.issuer ?? ctx.options.appName ?? 'Gatehouse'
      return { totpURI: await totpURI(secret, { issuer, account: user.email, digits: options.digits, period: options.period }) }
    },
  })
}
