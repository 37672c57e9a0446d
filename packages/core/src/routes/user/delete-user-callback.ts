/**
 * @module
 * GET /delete-user/callback?token&callbackURL (SPEC §7; the spec leaves the
 * response open). The link mailed by POST /delete-user: the delete-account
 * token names the user, so no session is needed (the link may be opened on
 * another device). The token is single use and purpose-bound: it is looked
 * up under the "delete-account-" prefix, so a password-reset token (or any
 * other) finds nothing here, and it is consumed in the same transaction that
 * deletes the user, so of two concurrent clicks exactly one deletes.
 *
 * Answers: with callbackURL, a redirect there (`?error=INVALID_TOKEN` appended
 * when the token is missing, unknown, used or expired, as GET
 * /reset-password/{token} does); without, `{ success: true, message: "User
 * deleted" }` or 400 "invalid token". When delete-user is disabled: 404.
 * Session cookies are cleared on success.
 *
 * A GET that deletes is what the spec prescribes. Mail scanners that
 * prefetch links would trigger it; an application that fears them mails a
 * link to a confirmation page of its own built from the `token` its mail
 * callback receives, and calls this route from that page (docs/accounts.md).
 */
import { z } from 'zod'
import { findUserById } from '../../accounts/users.js'
import type { EndpointContext } from '../../endpoint/context.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { peekVerificationToken } from '../../verification/verification-token.js'
import { appendQueryParam } from '../email/append-query.js'
import { removeUser } from './remove-user.js'

/**
 * @example
 * // The mailed link: GET {baseURL}/delete-user/callback?token=...&callbackURL=/goodbye
 * await auth.api.deleteUserCallback({ query: { token } }) // { success: true, message: 'User deleted' }
 */
export const deleteUserCallback = defineEndpoint({
  method: 'GET',
  path: '/delete-user/callback',
  query: z.object({
    token: z.string().optional(),
    callbackURL: z.string().optional(),
  }),
  handler: async (ctx) => {
    if (!ctx.options.user?.deleteUser?.enabled) throw new AuthError(CoreErrors.DELETE_USER_DISABLED)
    const { token, callbackURL } = ctx.query

    const deleted = token ? await redeem(ctx, token) : false
    if (callbackURL !== undefined) {
      return ctx.redirect(deleted ? callbackURL : appendQueryParam(callbackURL, 'error', 'INVALID_TOKEN'))
    }
    if (!deleted) throw new AuthError(CoreErrors.INVALID_TOKEN)
    return { success: true, message: 'User deleted' }
  },
})

/** Deletes the user the token names; false when the token is unknown, used, expired or its user gone. */
async function redeem(ctx: EndpointContext, token: string): Promise<boolean> {
  const userId = await peekVerificationToken(ctx.auth, 'delete-account', token)
  const user = userId ? await findUserById(ctx.db, userId) : null
  if (!user) return false
  return (await removeUser(ctx, user, { token })).ok
}
