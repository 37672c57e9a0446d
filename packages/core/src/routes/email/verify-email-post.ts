/**
 * @module
 * POST /verify-email {token, callbackURL?} (docs/accounts.md#email-verification):
 * the "Continue as …" button of the page GET /verify-email shows when the
 * browser holds another user's session (docs/security.md#login-csrf). It
 * does what the GET does, except that the auto sign-in the link owes may
 * replace that session. The form posts from the page's own origin, so the
 * origin check lets it through while refusing the same post from any other site.
 */
import { z } from 'zod'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { redeemVerificationLink } from './verify-email.js'

/**
 * @example
 * // The confirmation page's form: POST {baseURL}/verify-email  token=eyJ...&callbackURL=/welcome
 * // → 303 /welcome with the session cookie of the link's user
 */
export const verifyEmailPost = defineEndpoint({
  method: 'POST',
  path: '/verify-email',
  body: z.lazy(() =>
    z.object({
      token: z.string().optional(),
      callbackURL: z.string().optional(),
    }),
  ),
  handler: (ctx) => redeemVerificationLink(ctx, ctx.body, { confirmed: true }),
})
