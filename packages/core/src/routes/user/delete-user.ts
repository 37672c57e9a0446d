/**
 * @module
 * POST /delete-user {callbackURL?, password?, token?}
 * (docs/accounts.md#deleting-the-user), only when `user.deleteUser.enabled` (else 404 "Delete user is
 * disabled": the route exists only when enabled). Answers
 * `{ success: true, message: "User deleted" | "Verification email sent" }`.
 *
 * Which path applies, in order:
 * 1. `password` given: it must match the credential account ("Credential
 *    account not found" / "Invalid password"). Knowing the password is
 *    re-authentication, so no recent session is needed.
 * 2. `token` given: a delete-account token that names this user, consumed
 *    with the deletion ("invalid token" otherwise, and the token survives).
 *    With a password too, both must hold. Either proof deletes at once.
 * 3. Neither, and `sendDeleteAccountVerification` configured: a
 *    delete-account token (32 lowercase letters and digits, ~165 bits) is
 *    stored and its link mailed; the deletion happens at the callback.
 * 4. Neither and no mail: deletion directly, if the session is recent
 *    (docs/sessions.md#fresh-sessions). When it is not, a user who has a password is told to provide
 *    it ("User already has a password. Provide that to delete the account.":
 *    that path works without a recent session); a user without one gets
 *    "Session expired. Re-authenticate to perform this action.".
 *
 * "Recent" is measured from the session's creation, i.e. the last time the
 * user actually authenticated. The last update would not do: any read past
 * `updateAge` extends a session and stamps it updated, so a stolen cookie
 * kept warm would always look fresh.
 */
import { z } from 'zod'
import { deliverMail } from '../../accounts/mail.js'
import { findCredentialAccount } from '../../accounts/users.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { credentialSessionMiddleware } from '../../session/middleware.js'
import { isFresh } from '../../session/resolve-session.js'
import { createVerificationToken, deleteVerificationToken } from '../../verification/verification-token.js'
import { removeUser } from './remove-user.js'

/** A delete-account token lives one day unless configured (`deleteTokenExpiresIn`). */
const DEFAULT_DELETE_TOKEN_SECONDS = 86_400

/**
 * @example
 * const { message } = await auth.api.deleteUser({ body: { password }, headers: request.headers }) // 'User deleted'
 */
export const deleteUser = defineEndpoint({
  method: 'POST',
  path: '/delete-user',
  // The whole body is optional: no body means the mailed-link or recent-session path.
  body: z.lazy(() =>
    z
      .object({
        callbackURL: z.string().optional(),
        password: z.string().optional(),
        token: z.string().optional(),
      })
      .optional(),
  ),
  use: [credentialSessionMiddleware],
  handler: async (ctx) => {
    const settings = ctx.options.user?.deleteUser
    if (!settings?.enabled) throw new AuthError(CoreErrors.DELETE_USER_DISABLED)
    const { user } = ctx.session
    const { password, token, callbackURL } = ctx.body ?? {}

    if (password !== undefined) {
      const account = await findCredentialAccount(ctx.db, user.id)
      if (!account?.password) throw new AuthError(CoreErrors.CREDENTIAL_ACCOUNT_NOT_FOUND)
      if (!(await ctx.auth.passwords.verify(account.password, password))) throw new AuthError(CoreErrors.INVALID_PASSWORD)
    }
    if (password !== undefined || token !== undefined) {
      const result = await removeUser(ctx, user, token === undefined ? {} : { token })
      if (!result.ok) throw new AuthError(CoreErrors.INVALID_TOKEN)
      return { success: true, message: 'User deleted' }
    }

    const send = settings.sendDeleteAccountVerification
    if (send) {
      const expiresIn = settings.deleteTokenExpiresIn ?? DEFAULT_DELETE_TOKEN_SECONDS
      const created = await createVerificationToken(ctx.auth, 'delete-account', user.id, expiresIn)
      const url = new URL(`${ctx.auth.baseURL}/delete-user/callback`)
      url.searchParams.set('token', created.token)
      url.searchParams.set('callbackURL', callbackURL ?? '/')
      try {
        await deliverMail(ctx, 'delete-account', send, { user, url: url.toString(), token: created.token })
      } catch (error) {
        // A link nobody received must not stay redeemable.
        await deleteVerificationToken(ctx.auth, created.id)
        throw error
      }
      return { success: true, message: 'Verification email sent' }
    }

    if (!isFresh(ctx, ctx.session)) {
      const credential = await findCredentialAccount(ctx.db, user.id)
      if (credential?.password) throw new AuthError(CoreErrors.USER_ALREADY_HAS_PASSWORD)
      throw new AuthError(CoreErrors.SESSION_EXPIRED)
    }
    await removeUser(ctx, user)
    return { success: true, message: 'User deleted' }
  },
})
