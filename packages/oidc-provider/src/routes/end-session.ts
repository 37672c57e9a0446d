/**
 * @module
 * GET /oauth2/end-session (OpenID Connect RP-Initiated Logout 1.0): signs the
 * user out and sends the browser back to the relying party. `id_token_hint`
 * must be an ID Token this provider signed (an expired one is fine, §2); a
 * hint about another user than the signed-in one leaves that session alone.
 * `post_logout_redirect_uri` must equal one the client registered, exactly;
 * without one the answer is `{ success: true }`.
 */
import { clearSessionCookies, defineEndpoint, deleteSessions, optionalSessionMiddleware } from '@gatehouse/core'
import { OAuthError, OidcErrors } from '../errors.js'
import { verifyJwt } from '../keys/index.js'
import type { ResolvedOidcOptions } from '../options.js'
import { findClient } from '../services/clients.js'
import { isRegistered, withParams } from '../services/redirect-uris.js'
import { oauthParams, param } from './params.js'

const invalid = (message: string) => new OAuthError(OidcErrors.INVALID_REQUEST, { message })

export function oauth2EndSession(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/oauth2/end-session',
    query: oauthParams,
    use: [optionalSessionMiddleware],
    handler: async (ctx) => {
      const query = ctx.query ?? {}
      const hintText = param(query, 'id_token_hint')
      const hint = hintText === undefined ? null : await verifyJwt(ctx, options, hintText, { allowExpired: true })
      if (hintText !== undefined && hint === null) throw invalid('id_token_hint is not a valid ID Token of this provider')
      const audience = hint ? (Array.isArray(hint.aud) ? hint.aud[0] : hint.aud) : undefined
      const clientId = param(query, 'client_id') ?? audience
      if (audience !== undefined && clientId !== audience) throw invalid('client_id does not match the id_token_hint')

      const target = param(query, 'post_logout_redirect_uri')
      if (target !== undefined) {
        if (clientId === undefined) throw invalid('post_logout_redirect_uri needs client_id or id_token_hint')
        const client = await findClient(ctx.db, options, clientId)
        if (!client || client.disabled || !isRegistered(client.postLogoutRedirectURLs, target)) {
          throw invalid('post_logout_redirect_uri is not registered for this client')
        }
      }

      const { session } = ctx
      if (session && (hint === null || hint.sub === session.user.id)) {
        await deleteSessions(ctx.auth, [session.session.token])
        clearSessionCookies(ctx)
      }
      if (target === undefined) return { success: true }
      return ctx.redirect(withParams(target, { state: param(query, 'state') }))
    },
  })
}
