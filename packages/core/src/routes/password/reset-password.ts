/**
 * @module
 * POST /reset-password {newPassword, token?} or ?token=
 * (docs/accounts.md#password-reset). The token is consumed inside the same transaction that
 * writes the password, so the reset is all or nothing and a token works once:
 * of two concurrent resets with one token exactly one succeeds, the other
 * gets 400 "invalid token". The credential account's password is replaced,
 * or a credential account is created for a user who had none (a social-only
 * user who chose to set a password this way). Every other reset link of the
 * user dies with it, and (unless `revokeSessionsOnPasswordReset: false`)
 * every session, OAuth grant and pending second factor of the user
 * (`revokeUserCredentials`): whoever knew the old password, or held a session
 * made with it, is out. The reset link proves the mailbox, so a user whose
 * address was not yet verified becomes verified and loses whatever was set up
 * before (session/prove-mailbox.ts), whatever that option says.
 *
 * A cheap look-up rejects an unknown token before the password is hashed, so
 * random tokens cannot make the server burn scrypt work; the hash is computed
 * outside the transaction so no lock is held while it runs.
 */
import { z } from 'zod'
import { isUniqueViolation } from '../../db/adapter.js'
import { findUserById } from '../../accounts/users.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import type { User } from '../../types/rows.js'
import { consumeVerificationToken, peekVerificationToken } from '../../verification/verification-token.js'
import { applyPasswordReset, reportPasswordReset } from './apply-password-reset.js'

/**
 * @example
 * await auth.api.resetPassword({ body: { newPassword: 'a new long passphrase', token } })
 * // { status: true }
 */
export const resetPassword = defineEndpoint({
  method: 'POST',
  path: '/reset-password',
  body: z.lazy(() =>
    z.object({
      newPassword: z.string(),
      token: z.string().optional(),
    }),
  ),
  query: z.lazy(() => z.object({ token: z.string().optional() })),
  handler: async (ctx) => {
    const { auth } = ctx
    const token = ctx.body.token ?? ctx.query.token
    if (!token) throw new AuthError(CoreErrors.INVALID_TOKEN)
    auth.passwords.checkLength(ctx.body.newPassword)
    if (!(await peekVerificationToken(auth, 'reset-password', token))) throw new AuthError(CoreErrors.INVALID_TOKEN)
    const hash = await auth.passwords.hash(ctx.body.newPassword)

    const apply = () => ctx.db.transaction(async (tx): Promise<User> => {
      const userId = await consumeVerificationToken(auth, 'reset-password', token, tx)
      if (!userId) throw new AuthError(CoreErrors.INVALID_TOKEN)
      const stored = await findUserById(tx, userId)
      if (!stored) throw new AuthError(CoreErrors.INVALID_TOKEN)
      return applyPasswordReset(auth, { user: stored, hash, db: tx })
    })
    // Two resets racing for a user without a credential account: the loser's insert hits the
    // (providerId, accountId) unique index and rolls back, token included; once more, it updates.
    const user = await apply().catch((error: unknown) => {
      if (isUniqueViolation(error)) return apply()
      throw error
    })

    await reportPasswordReset(ctx, user)
    return { status: true }
  },
})
