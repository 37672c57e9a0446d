/**
 * @module
 * POST /set-password {newPassword} (docs/accounts.md#changing-and-setting-a-password): server only — never
 * routed, callable as `auth.api.setPassword({ body, headers })` — so the
 * application decides when a signed-in user without a password (a social
 * sign-up, say) may add one. A user whose credential account already has a
 * password gets 400 "user already has a password": replacing it is
 * change-password's job, which asks for the current one. Otherwise the
 * password (length-checked, hashed) goes on the credential account, which is
 * created when missing. Answers `{ status: true }`.
 */
import { z } from 'zod'
import { isUniqueViolation } from '../../db/adapter.js'
import { CREDENTIAL_PROVIDER, findCredentialAccount } from '../../accounts/users.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { credentialSessionMiddleware } from '../../session/middleware.js'

/**
 * @example
 * await auth.api.setPassword({ body: { newPassword: 'a long passphrase' }, headers: request.headers })
 * // { status: true }
 */
export const setPassword = defineEndpoint({
  method: 'POST',
  path: '/set-password',
  serverOnly: true,
  body: z.lazy(() => z.object({ newPassword: z.string() })),
  use: [credentialSessionMiddleware],
  handler: async (ctx) => {
    const { auth } = ctx
    const { user } = ctx.session
    if ((await findCredentialAccount(ctx.db, user.id))?.password) throw new AuthError(CoreErrors.USER_ALREADY_HAS_A_PASSWORD)
    auth.passwords.checkLength(ctx.body.newPassword)
    const hash = await auth.passwords.hash(ctx.body.newPassword)

    try {
      await ctx.db.transaction(async (tx) => {
        // Checked again inside the transaction: the hash took a while, and a concurrent call may have won.
        const account = await findCredentialAccount(tx, user.id)
        if (account?.password) throw new AuthError(CoreErrors.USER_ALREADY_HAS_A_PASSWORD)
        if (account) {
          await tx.update({ model: 'account', where: { field: 'id', value: account.id }, update: { password: hash } })
        } else {
          await tx.create({
            model: 'account',
            data: { providerId: CREDENTIAL_PROVIDER, accountId: user.id, userId: user.id, password: hash },
          })
        }
      })
    } catch (error) {
      // The (providerId, accountId) unique index: a concurrent call created the credential account first.
      if (isUniqueViolation(error)) throw new AuthError(CoreErrors.USER_ALREADY_HAS_A_PASSWORD)
      throw error
    }
    return { status: true }
  },
})
