/**
 * @module
 * GET /delete-user/callback?token&callbackURL, the link mailed by POST
 * /delete-user (docs/accounts.md#deleting-the-user; the answer is ours to
 * choose). It deletes only for a signed-in session of the user the token
 * names: a GET is what mail scanners prefetch and what a forwarded mail hands
 * to someone else, and neither may delete an account. The token is
 * purpose-bound (looked up under the "delete-account-" prefix, so a
 * password-reset token finds nothing here) and single use.
 *
 * The token's user is compared with the caller's before anything is
 * consumed, so a request without a session or from another user leaves the
 * link usable by its owner; the owner's request consumes it in the
 * transaction that deletes, so of concurrent clicks exactly one deletes.
 *
 * Answers, with callbackURL a redirect there, without it JSON:
 * - no session: `?error=UNAUTHORIZED` appended, or 401 "Unauthorized";
 * - token missing, unknown, used, expired, or another user's:
 *   `?error=INVALID_TOKEN` appended (as GET /reset-password/{token} does),
 *   or 400 "invalid token";
 * - a veto of the deletion (an `AuthError` from `beforeDelete` or a database
 *   hook): its code appended as `?error=`, or its JSON error with its status;
 * - deleted: the callbackURL itself, or `{ success: true, message: "User
 *   deleted" }`, and the session cookies are cleared.
 * When delete-user is disabled: 404.
 */
import { z } from 'zod'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError, isAuthError, type ErrorDefinition } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { appendQueryParam } from '../../security/append-query.js'
import { sessionSource } from '../../session/credentials.js'
import { optionalSensitiveSessionMiddleware } from '../../session/middleware.js'
import { removeUser } from './remove-user.js'

/**
 * @example
 * // The mailed link, followed in the browser where the user is signed in:
 * // GET {baseURL}/delete-user/callback?token=...&callbackURL=/goodbye
 * await auth.api.deleteUserCallback({ query: { token }, headers: request.headers }) // { success: true, message: 'User deleted' }
 */
export const deleteUserCallback = defineEndpoint({
  method: 'GET',
  path: '/delete-user/callback',
  query: z.lazy(() =>
    z.object({
      token: z.string().optional(),
      callbackURL: z.string().optional(),
    }),
  ),
  use: [optionalSensitiveSessionMiddleware],
  handler: async (ctx) => {
    if (!ctx.options.user?.deleteUser?.enabled) throw new AuthError(CoreErrors.DELETE_USER_DISABLED)
    const { token, callbackURL } = ctx.query
    const refuse = (error: ErrorDefinition) => {
      if (callbackURL !== undefined) return ctx.redirect(appendQueryParam(callbackURL, 'error', error.code))
      throw new AuthError(error)
    }

    if (!ctx.session) return refuse(CoreErrors.UNAUTHORIZED)
    // An API key never deletes its owner (docs/sessions.md#credentials-other-than-the-cookie).
    if (!sessionSource(ctx.session).mayChangeCredentials) return refuse(CoreErrors.CREDENTIAL_NOT_ALLOWED)
    let deleted = false
    try {
      deleted = token ? (await removeUser(ctx, ctx.session.user, { token })).ok : false
    } catch (error) {
      // A veto (`beforeDelete`, or a plugin's hook on the user row such as the organization plugin's last-owner
      // rule) goes back to the application's page like the other refusals; the token stays usable.
      if (isAuthError(error) && callbackURL !== undefined) return ctx.redirect(appendQueryParam(callbackURL, 'error', error.code))
      throw error
    }
    if (!deleted) return refuse(CoreErrors.INVALID_TOKEN)
    if (callbackURL !== undefined) return ctx.redirect(callbackURL)
    return { success: true, message: 'User deleted' }
  },
})
