/**
 * @module
 * GET /reset-password/{token}?callbackURL (docs/accounts.md#password-reset): the link in the reset
 * mail. It checks the token without consuming it (POST /reset-password does
 * that) and sends the browser to the application's reset form with
 * `token=...`, or with `error=INVALID_TOKEN` when the token is unknown,
 * expired, used or minted for another purpose. The runtime has already
 * refused an untrusted callbackURL (403), so the token only ever travels to
 * the application's own origin.
 */
import { z } from 'zod'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { appendQueryParam } from '../../security/append-query.js'
import { peekVerificationToken } from '../../verification/verification-token.js'

/**
 * @example
 * // GET {baseURL}/reset-password/Xk3...?callbackURL=/reset  →  302 /reset?token=Xk3...
 */
export const resetPasswordCallback = defineEndpoint({
  method: 'GET',
  path: '/reset-password/:token',
  query: z.lazy(() => z.object({ callbackURL: z.string().optional() })),
  handler: async (ctx) => {
    const { callbackURL } = ctx.query
    if (!callbackURL) throw new AuthError(CoreErrors.CALLBACK_URL_REQUIRED)
    const token = ctx.params.token ?? ''
    const userId = token ? await peekVerificationToken(ctx.auth, 'reset-password', token) : null
    if (!userId) return ctx.redirect(appendQueryParam(callbackURL, 'error', 'INVALID_TOKEN'))
    return ctx.redirect(appendQueryParam(callbackURL, 'token', token))
  },
})
