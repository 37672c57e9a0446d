/**
 * @module
 * GET and POST /oauth2/authorize (RFC 6749 §4.1.1, OpenID Connect Core
 * §3.1.2.1, which asks for both methods; a POST carries the parameters as a
 * form). Always answers with a redirect (to the login page, the consent page
 * or the client), except for the errors that must not be redirected, which
 * are answered with 400 (docs/oidc-provider.md#authorization). The POST form
 * comes from the relying party's origin, so the origin check is off: the
 * request changes nothing a GET by navigation could not.
 */
import { defineEndpoint, optionalSessionMiddleware } from '@gatehouse/core'
import type { ResolvedOidcOptions } from '../options.js'
import { continueAuthorization } from '../services/authorization.js'
import { oauthParams } from './params.js'

export function oauth2Authorize(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: ['GET', 'POST'],
    path: '/oauth2/authorize',
    query: oauthParams,
    body: oauthParams,
    use: [optionalSessionMiddleware],
    metadata: { skipOriginCheck: true },
    handler: async (ctx) => {
      const { session } = ctx
      const signIn = session ? { userId: session.user.id, signedInAt: session.session.createdAt } : null
      const params = ctx.method === 'POST' ? (ctx.body ?? {}) : (ctx.query ?? {})
      const next = await continueAuthorization(ctx, options, params, signIn)
      return ctx.redirect(next)
    },
  })
}
