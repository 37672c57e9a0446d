/**
 * @module
 * Starting an OpenID Connect sign-in (docs/sso.md#openid-connect): the
 * provider is discovered, a state row is stored and bound to the browser
 * (oidc/state.ts), and the browser is sent to the provider's authorization
 * endpoint with the authorization code flow's parameters: `state`, PKCE
 * S256 always (RFC 7636; RFC 9700 §2.1.1 wants it of every client, and it
 * binds the code to this browser's flow even if the code leaks), a `nonce`
 * the ID Token must carry (OpenID Connect Core §3.1.2.1: a token minted for
 * another sign-in is not accepted here), the scopes and a `login_hint`.
 */
import { AuthError, CoreErrors, sha256Base64url, type EndpointContext } from '@gatehouse/core'
import * as oauth from 'oauth4webapi'
import type { OidcConfig, SsoLanding, StoredProvider } from '../types.js'
import { discoverOidc } from './discovery.js'
import { createSsoState } from './state.js'

/** Asked of every provider; `openid` makes it OpenID Connect (docs/sso.md#scopes). */
export const DEFAULT_SCOPES: readonly string[] = ['openid', 'email', 'profile']

/**
 * Where the provider sends the browser back: `{baseURL}/sso/callback/{providerId}`,
 * the redirect URI an admin registers at their IdP.
 *
 * @example
 * oidcRedirectURI(ctx, 'acme') // 'https://app.example.com/api/auth/sso/callback/acme'
 */
export function oidcRedirectURI(ctx: Pick<EndpointContext, 'auth'>, providerId: string): string {
  return `${ctx.auth.baseURL}/sso/callback/${encodeURIComponent(providerId)}`
}

/**
 * A digest of what a sign-in through `provider` depends on: its issuer, client,
 * endpoints, domain and organization. Stored in the state; a callback whose
 * provider changed since (another IdP, another client) is refused rather than
 * finished under a configuration the sign-in did not start with.
 *
 * @example
 * providerVersion(provider) // 'q0y…' (43 characters)
 */
export function providerVersion(provider: StoredProvider): string {
  const oidc = provider.oidc
  return sha256Base64url(
    JSON.stringify([
      provider.providerId,
      provider.issuer,
      provider.domain,
      provider.organizationId,
      oidc?.issuer ?? null,
      oidc?.clientId ?? null,
      oidc?.discoveryEndpoint ?? null,
      oidc?.authorizationEndpoint ?? null,
      oidc?.tokenEndpoint ?? null,
      oidc?.userInfoEndpoint ?? null,
      oidc?.jwksEndpoint ?? null,
    ]),
  )
}

/** The default scopes, the provider's configured ones, then the request's; each once. */
export function requestedScopes(config: Pick<OidcConfig, 'scopes'>, extra: readonly string[] = []): string[] {
  return [...new Set([...DEFAULT_SCOPES, ...(config.scopes ?? []), ...extra])]
}

export interface OidcSignInRequest {
  readonly landing: SsoLanding
  readonly scopes?: readonly string[] | undefined
  readonly loginHint?: string | undefined
}

/**
 * Stores the state, sets the state cookie and returns the provider's authorization URL.
 * A provider that cannot be discovered answers 503 "Provider is unavailable".
 *
 * @example
 * const url = await startOidcSignIn(ctx, provider, { landing, loginHint: 'ada@acme.example' })
 */
export async function startOidcSignIn(ctx: EndpointContext, provider: StoredProvider, request: OidcSignInRequest): Promise<string> {
  const config = provider.oidc
  if (!config) throw new Error(`provider ${provider.providerId} has no OIDC configuration`)
  const discovered = await discoverOidc(ctx, config)
  if (!discovered.ok) {
    ctx.logger.warn('sso: OIDC discovery failed', { provider: provider.providerId, reason: discovered.reason })
    throw new AuthError(CoreErrors.PROVIDER_UNAVAILABLE)
  }
  const endpoint = discovered.server.authorization_endpoint as string
  const { state, data } = await createSsoState(ctx, {
    providerId: provider.providerId,
    providerVersion: providerVersion(provider),
    landing: request.landing,
  })
  const url = new URL(endpoint)
  const params = url.searchParams
  params.set('response_type', 'code')
  params.set('client_id', config.clientId)
  params.set('redirect_uri', oidcRedirectURI(ctx, provider.providerId))
  params.set('scope', requestedScopes(config, request.scopes).join(' '))
  params.set('state', state)
  params.set('code_challenge', await oauth.calculatePKCECodeChallenge(data.codeVerifier))
  params.set('code_challenge_method', 'S256')
  params.set('nonce', data.nonce)
  if (request.loginHint) params.set('login_hint', request.loginHint)
  return url.toString()
}
