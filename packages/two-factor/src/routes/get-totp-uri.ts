/**
 * @module
 * POST /two-factor/get-totp-uri {password} → {totpURI}
 * (docs/two-factor.md#turning-it-on): the otpauth:// URI of a setup started
 * by enable and not yet confirmed, again (the QR code page reloaded), with
 * the password, as for enable. Once a code confirmed the setup the secret is
 * never handed out again, whatever the proof: 400 "Two-factor authentication
 * is already enabled". A seed read out later keeps working after the owner
 * took the account back; a second authenticator app is a new setup (turn it
 * off, then on) (docs/two-factor.md#proof-of-the-second-factor). The flag is
 * read under the user's `twoFactor` row lock, the lock the confirming code
 * turns it on under, so a confirmation racing this call is seen. `code`,
 * accepted by earlier versions, is ignored.
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { openSecret } from '../crypto/secret-box.js'
import { totpURI } from '../crypto/totp.js'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions } from '../options.js'
import { findTwoFactor, isEnabled, requirePassword, type TwoFactorRow, type TwoFactorUser } from '../services/state.js'

/**
 * @example
 * const { totpURI } = await auth.api.getTOTPURI({ body: { password }, headers }) // during a setup only
 */
export function getTOTPURI(options: ResolvedTwoFactorOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/two-factor/get-totp-uri',
    body: z.lazy(() => z.object({ password: z.string(), code: z.string().max(64).optional() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const { user } = ctx.session
      if (!(await findTwoFactor(ctx.db, user.id))) throw new AuthError(TwoFactorErrors.TOTP_NOT_SET_UP)
      await requirePassword(ctx, user.id, ctx.body.password)
      const sealed = await ctx.db.transaction(async (tx) => {
        const row = await tx.lock<TwoFactorRow & Row>({ model: 'twoFactor', where: { field: 'userId', value: user.id } })
        const stored = await tx.findOne<TwoFactorUser & Row>({ model: 'user', where: { field: 'id', value: user.id } })
        if (stored && isEnabled(stored)) throw new AuthError(TwoFactorErrors.TWO_FACTOR_ALREADY_ENABLED)
        return row?.secret ?? null
      })
      const secret = sealed ? await openSecret(ctx.secrets, user.id, sealed) : null
      // Gone since (disabled meanwhile), or sealed under a secret no longer configured: only a new setup helps.
      if (!secret) throw new AuthError(TwoFactorErrors.TOTP_NOT_SET_UP)
      const issuer = options.issuer ?? ctx.options.appName ?? 'Gatehouse'
      return { totpURI: await totpURI(secret, { issuer, account: user.email, digits: options.digits, period: options.period }) }
    },
  })
}
