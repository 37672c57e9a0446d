/**
 * @module
 * GET /oauth2/end-session (OpenID Connect RP-Initiated Logout 1.0): signs the
 * user out and sends the browser back to the relying party. `id_token_hint`
 * is an ID Token this provider signed (an expired one is fine, §2).
 * `post_logout_redirect_uri` must equal one the client registered, exactly.
 *
 * The browser is sent there only when the hint names the user whose session
 * this request just ended (docs/oidc-provider.md#end-session). Otherwise
 * nothing shows the request comes from that user's relying party: anyone can
 * obtain an ID Token for their own account from a client of their own, whose
 * registered URI is their site, and use it as the hint in a link, turning
 * the provider into a redirector (and a hint is accepted long after it
 * expired). Then the signed-in user gets the confirmation page (one button,
 * which posts to POST /oauth2/end-session from the provider's own origin,
 * so no other site can press it), and a browser without a session gets a
 * page saying it is signed out, with at most a link to the URI.
 *
 * A hint that does not verify (signed by a key retired since, or not ours)
 * counts as no hint: the user is asked, never answered 400 (§2 lets the OP
 * ask the user whenever it cannot tell). Without a valid hint the GET signs
 * nobody out: a silent logout is a nuisance any page could repeat (logout
 * CSRF).
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
import { signedOutPage } from '../services/signed-out-page.js'
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
      // Unverifiable (a retired key, a forgery): treated as absent, so the user is asked rather than refused.
      const hint = hintText === undefined ? null : await verifyJwt(ctx, options, hintText, { allowExpired: true })
      const audience = hint ? (Array.isArray(hint.aud) ? hint.aud[0] : hint.aud) : undefined
      const clientId = param(query, 'client_id') ?? audience
      if (audience !== undefined && clientId !== audience) throw invalid('client_id does not match the id_token_hint')

      const target = param(query, 'post_logout_redirect_uri')
      if (target !== undefined && clientId !== undefined) {
        const client = await findClient(ctx.db, options, clientId)
        if (!client || client.disabled || !isRegistered(client.postLogoutRedirectURLs, target)) {
          throw invalid('post_logout_redirect_uri is not registered for this client')
        }
      } else if (target !== undefined && hintText === undefined) {
        throw invalid('post_logout_redirect_uri needs client_id or id_token_hint')
      }

      const { session } = ctx
      if (session && hint !== null && hint.sub === session.user.id) {
        await signOut(ctx, session)
        if (target === undefined) return { success: true }
        return ctx.redirect(withParams(target, { state: param(query, 'state') }))
      }
      if (session) {
        // No hint, an unverifiable one, or one about someone else: ask; never redirect (RP-Initiated Logout 1.0 §2, §3).
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
      // Nobody signed in here: nothing to end. A verified target is offered as a link, never followed unasked.
      if (hint !== null && target !== undefined) {
        return signedOutPage({ appName: ctx.options.appName, link: withParams(target, { state: param(query, 'state') }) })
      }
      return { success: true }
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
