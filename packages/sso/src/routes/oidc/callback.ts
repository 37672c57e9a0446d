/**
 * @module
 * GET /sso/callback/:providerId (docs/sso.md#openid-connect): where an
 * organization's OpenID Provider sends the browser back. It always ends in a
 * redirect: to the sign-in's callbackURL (newUserCallbackURL for a new user),
 * or to its errorCallbackURL, else the error page, with `?error=<code>`.
 *
 * Order: the state must be present and equal the browser's signed state
 * cookie (else nothing is consumed), then the stored state is consumed once;
 * only then are the provider, the IdP's answer, the code exchange and the ID
 * Token looked at (oidc/exchange.ts), so nobody without the browser's cookie
 * can make this route call the IdP. The state's provider must be the path's,
 * and configured as it was when the sign-in started. The claims become an
 * `SsoProfile` (oidc/claims.ts) and the domain rules, the user, the
 * membership and the session are services/provision.ts's.
 */
import { defineEndpoint, errorRedirect, type EndpointContext } from '@gatehouse/core'
import { profileFromClaims, sharedIssuerRefusal } from '../../oidc/claims.js'
import { discoverOidc } from '../../oidc/discovery.js'
import { exchangeCode } from '../../oidc/exchange.js'
import { oidcRedirectURI, providerVersion } from '../../oidc/flow.js'
import { consumeSsoState, type SsoStateData } from '../../oidc/state.js'
import { completeSsoSignIn } from '../../services/provision.js'
import { findProvider, readProvider } from '../../services/provider-secrets.js'

/**
 * @example
 * // The IdP redirects the browser to:
 * // GET /api/auth/sso/callback/acme?code=…&state=…&iss=https%3A%2F%2Facme.okta.com
 */
export const ssoCallback = defineEndpoint({
  method: 'GET',
  path: '/sso/callback/:providerId',
  handler: async (ctx) => {
    const params = callbackParams(ctx.query)
    if (!params) return errorRedirect(ctx, 'invalid_callback_request', null)
    const state = params.get('state')
    if (!state) return errorRedirect(ctx, 'state_not_found', null)

    let data: SsoStateData | null = null
    try {
      const checked = await consumeSsoState(ctx, state)
      if (!checked.ok) return errorRedirect(ctx, 'please_restart_the_process', checked.reason === 'expired' ? checked.data.landing.errorURL : null)
      data = checked.data
      return await finish(ctx, params, state, data)
    } catch (error) {
      // Even a database fault ends in a redirect, not a JSON 500 in the middle of a browser flow.
      ctx.logger.error('sso: OIDC callback failed', { error: error instanceof Error ? error.name : typeof error })
      return errorRedirect(ctx, 'internal_server_error', data?.landing.errorURL ?? null)
    }
  },
})

async function finish(ctx: EndpointContext, params: URLSearchParams, state: string, data: SsoStateData): Promise<Response> {
  const fail = (code: string) => errorRedirect(ctx, code, data.landing.errorURL)
  const providerId = ctx.params.providerId ?? ''
  // A state is good only at the callback of the provider it was issued for.
  if (providerId !== data.providerId) return fail('invalid_callback_request')
  const row = await findProvider(ctx.db, providerId)
  const provider = row ? await readProvider(ctx, row) : null
  if (!provider?.oidc) return fail('provider_not_found')
  // Another IdP or client since the sign-in started: its code and tokens are not this configuration's.
  if (providerVersion(provider) !== data.providerVersion) return fail('provider_changed')

  const discovered = await discoverOidc(ctx, provider.oidc)
  if (!discovered.ok) {
    ctx.logger.warn('sso: OIDC discovery failed', { provider: providerId, reason: discovered.reason })
    return fail('provider_unavailable')
  }
  const exchanged = await exchangeCode(ctx, provider.oidc, discovered.server, params, {
    state,
    data,
    redirectURI: oidcRedirectURI(ctx, providerId),
  })
  if (!exchanged.ok) return fail(exchanged.reason === 'provider_error' ? exchanged.error : exchanged.reason)
  const mapped = profileFromClaims(exchanged.claims, provider.oidc.mapping)
  if (!mapped.ok) return fail(mapped.reason)
  const refusal = sharedIssuerRefusal(provider.oidc.issuer, provider.domain, mapped.profile)
  if (refusal) return fail(refusal)
  return completeSsoSignIn(ctx, provider, mapped.profile, data.landing)
}

/** The query as parameters; null when a parameter is repeated or not text (a malformed or forged callback). */
function callbackParams(query: unknown): URLSearchParams | null {
  const params = new URLSearchParams()
  if (query === undefined || query === null) return params
  if (typeof query !== 'object') return null
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') return null
    params.set(name, value)
  }
  return params
}
