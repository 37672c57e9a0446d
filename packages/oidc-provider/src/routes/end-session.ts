/**
 * @module
 * GET /oauth2/end-session (OpenID Connect RP-Initiated Logout 1.0): signs the
 * user out and sends the browser back to the relying party. `id_token_hint`
 * must be an ID Token this provider signed (an expired one is fine, §2); a
 * hint about another user than the signed-in one leaves that session alone.
 * `post_logout_redirect_uri` must equal one the client registered, exactly,
 * and is followed only when the hint's audience is that client (§3): without
 * a hint nothing vouches that the request comes from the user's relying
 * party, so any page could use the provider as a redirector.
 *
 * Without a valid hint the GET signs nobody out: any site can make a browser
 * open this URL, and a silent logout is a nuisance an attacker can repeat at
 * will (logout CSRF). The signed-in user gets a page with one button
 * instead, which posts to POST /oauth2/end-session from the provider's own
 * origin (docs/oidc-provider.md#end-session).
 */
import {
  clearSessionCookies,
  confirmationPage,
  defineEndpoint,
  deleteSessions,
  optionalSessionMiddleware,
  type EndpointContext,
  type SessionWithUser,
} from '@gatehouse/core'
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
      if (hint === null) {
        // No hint: ask the signed-in user, and never redirect (RP-Initiated Logout 1.0 §2, §3).
        if (!session) return { success: true }
        return confirmationPage({
          appName: ctx.options.appName,
          title: 'sign out?',
          heading: 'Sign out?',
          message: ['An application asks to sign you out. You are signed in as ', { strong: session.user.email }, '.'],
          button: 'Sign out',
          action: `${ctx.auth.baseURL}/oauth2/end-session`,
          fields: {},
          cancelURL: '/',
        })
      }
      if (session && hint.sub === session.user.id) await signOut(ctx, session)
      if (target === undefined) return { success: true }
      return ctx.redirect(withParams(target, { state: param(query, 'state') }))
    },
  })
}

/**
 * POST /oauth2/end-session: the confirmation page's button. Signs the
 * browser's session out and sends the browser to the site's root (a fetch
 * caller gets `{ success: true }`). Like every cookie-carrying POST it must
 * come from a trusted origin, so no other site can press it.
 */
export function oauth2EndSessionConfirm() {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/end-session',
    use: [optionalSessionMiddleware],
    handler: async (ctx) => {
      if (ctx.session) await signOut(ctx, ctx.session)
      const wantsJson = ctx.isServerCall || (ctx.headers.get('accept') ?? '').includes('application/json')
      return wantsJson ? { success: true } : ctx.redirect('/', 303)
    },
  })
}

async function signOut(ctx: EndpointContext, session: SessionWithUser): Promise<void> {
  // Cleared first: a revocation answered 503 (secondary storage down) still signs this browser out.
  clearSessionCookies(ctx)
  await deleteSessions(ctx.auth, [session.session.token])
}
