/**
 * @module
 * POST /change-password {newPassword, currentPassword, revokeOtherSessions?}
 * (docs/accounts.md#changing-and-setting-a-password) → `{ token, user }`. The session is
 * read from the store, never the cookie cache (a revoked session must not
 * change a password). The user needs a credential account with a password
 * ("Credential account not found") and the current password must match
 * ("Invalid password").
 *
 * The update is a compare-and-swap on the old hash: of two concurrent
 * changes made with the same current password, one wins and the other gets
 * "Invalid password", never a silent overwrite.
 *
 * With `revokeOtherSessions` every session of the user is deleted in the same
 * transaction, with the user's OAuth grants and pending second factors
 * (`revokeUserCredentials`: whoever may know the old password is signed out) and the
 * caller gets a fresh session: a new token, returned and set as the cookie.
 * That session is created after the commit, so a rolled-back change never
 * leaves a session mirrored in secondary storage. Otherwise `token` is null.
 */
import { z } from 'zod'
import { findCredentialAccount } from '../../accounts/users.js'
import { publicRow } from '../../db/output.js'
import type { Row } from '../../db/adapter.js'
import type { User } from '../../types/rows.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { credentialSessionMiddleware } from '../../session/middleware.js'
import { isDontRemember, setSessionCookies } from '../../session/session-cookies.js'
import { revokeUserCredentials } from '../../session/revoke-credentials.js'
import { createSession } from '../../session/session-store.js'

/**
 * @example
 * const { token } = await auth.api.changePassword({
 *   body: { currentPassword: 'old passphrase', newPassword: 'new passphrase', revokeOtherSessions: true },
 *   headers: request.headers,
 * })
 */
export const changePassword = defineEndpoint({
  method: 'POST',
  path: '/change-password',
  body: z.lazy(() =>
    z.object({
      newPassword: z.string(),
      currentPassword: z.string(),
      revokeOtherSessions: z.boolean().optional(),
    }),
  ),
  use: [credentialSessionMiddleware],
  handler: async (ctx) => {
    const { auth, body } = ctx
    const { user } = ctx.session
    auth.passwords.checkLength(body.newPassword)
    const account = await findCredentialAccount(ctx.db, user.id)
    const currentHash = account?.password
    if (!account || !currentHash) throw new AuthError(CoreErrors.CREDENTIAL_ACCOUNT_NOT_FOUND)
    if (!(await auth.passwords.verify(currentHash, body.currentPassword))) throw new AuthError(CoreErrors.INVALID_PASSWORD)
    const hash = await auth.passwords.hash(body.newPassword)

    const created = await ctx.db.transaction(async (tx) => {
      const updated = await tx.update({
        model: 'account',
        where: [
          { field: 'id', value: account.id },
          { field: 'password', value: currentHash },
        ],
        update: { password: hash },
      })
      if (!updated) throw new AuthError(CoreErrors.INVALID_PASSWORD)
      // Whoever may know the old password is out: every session, OAuth grant and pending second factor.
      if (!body.revokeOtherSessions) return null
      await revokeUserCredentials(auth, { userId: user.id, reason: 'password-changed', db: tx })
      // The caller's new session, in the revoking transaction: it holds the version the revocation just wrote.
      const current = await tx.findOne<User & Row>({ model: 'user', where: { field: 'id', value: user.id } })
      if (!current) throw new AuthError(CoreErrors.USER_NOT_FOUND)
      return createSession(auth, current, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent'), db: tx, amr: ['pwd'] })
    })

    const visible = publicRow(auth.schema, 'user', user)
    if (!created) return { token: null as string | null, user: visible }
    const dontRemember = isDontRemember(ctx)
    setSessionCookies(ctx, created, { dontRemember })
    return { token: created.token as string | null, user: visible }
  },
})
