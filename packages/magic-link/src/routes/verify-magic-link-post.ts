/**
 * @module
 * POST /magic-link/verify {token, callbackURL?, newUserCallbackURL?, errorCallbackURL?}
 * (docs/magic-link.md#the-flow): the "Continue as …" button of the page
 * the link shows when the browser holds another user's session
 * (docs/security.md#login-csrf). It consumes the token and signs in exactly
 * as the GET does without that session, replacing it. The form posts from
 * the page's own origin, so the origin check lets it through while refusing
 * the same post from any other site.
 */
import { defineEndpoint } from '@gatehouse/core'
import type { ResolvedMagicLinkOptions } from '../options.js'
import { linkFields, signInWithLink } from './verify-magic-link.js'

/**
 * @example
 * // The confirmation page's form: POST {baseURL}/magic-link/verify  token=Xk3…&callbackURL=/dashboard
 * // → 303 /dashboard with the session cookie of the link's user
 */
export function verifyMagicLinkPost(options: ResolvedMagicLinkOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/magic-link/verify',
    body: linkFields,
    handler: (ctx) => signInWithLink(ctx, options, ctx.body, 303),
  })
}
