/**
 * @module
 * The relying-party side of OAuth 2.0 and OpenID Connect, on oauth4webapi
 * (docs/social.md#protocol-library): the authorization URL (state, PKCE S256,
 * nonce), the authorization response check (state, RFC 9207 `iss`), the code
 * exchange and refresh with the provider's client authentication, the
 * code-flow ID Token claims check (iss, aud, exp, iat, azp, nonce), and
 * discovery for generic OpenID Connect providers. Every outbound call is cut
 * off after {@link PROVIDER_TIMEOUT_MS}; a failure surfaces as an exception
 * the routes turn into an error redirect or a 400, never a hang.
 *
 * oauth4webapi reads the wall clock; it is handed the auth's clock as a skew
 * so that expiry checks use the same time as the rest of core.
 */
import * as oauth from 'oauth4webapi'
import type { ConfiguredProvider, ProviderRequestContext, ProviderTokens } from '../types/social.js'
import { isLoopback } from './registry.js'

/** Outbound calls to a provider (token, UserInfo, discovery, profile APIs) are cut off after this. */
export const PROVIDER_TIMEOUT_MS = 5000
/** A discovery document is reused this long, like a remote key set (docs/social.md#constants). */
const DISCOVERY_CACHE_MS = 600_000

interface ClockLike {
  now(): Date
}

/** Stands for the user's tenant in a multi-tenant issuer (Microsoft's `common` endpoints). */
export const TENANT_PLACEHOLDER = '{tenantid}'

/**
 * oauth4webapi's hook for an issuer that depends on the ID Token (its `tid`),
 * exported by the library but left out of its typings; openid-client uses it
 * the same way for Microsoft's multi-tenant endpoints.
 */
const expectedIssuerHook = (oauth as unknown as { readonly _expectedIssuer?: symbol })._expectedIssuer

/** The issuer a token must carry: a multi-tenant template filled with the token's `tid`; null when it has no usable `tid`. */
export function resolveIssuer(template: string, claims: Readonly<Record<string, unknown>>): string | null {
  if (!template.includes(TENANT_PLACEHOLDER)) return template
  return typeof claims.tid === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(claims.tid) ? template.replace(TENANT_PLACEHOLDER, claims.tid) : null
}

/** The provider's endpoints in oauth4webapi's shape, static or discovered. */
export async function authorizationServer(provider: ConfiguredProvider, clock: ClockLike): Promise<oauth.AuthorizationServer> {
  const definition = provider.definition
  if (!definition.discovery) {
    // Only compared with an `iss` the provider sends (RFC 9207) and with ID Token `iss` claims.
    const issuer = definition.issuer ?? new URL(definition.authorizationEndpoint as string).origin
    const server: oauth.AuthorizationServer = {
      issuer,
      authorization_endpoint: definition.authorizationEndpoint,
      token_endpoint: definition.tokenEndpoint,
      ...(definition.userInfoEndpoint ? { userinfo_endpoint: definition.userInfoEndpoint } : {}),
      ...(definition.jwksUri ? { jwks_uri: definition.jwksUri } : {}),
    }
    if (issuer.includes(TENANT_PLACEHOLDER) && expectedIssuerHook) {
      Object.assign(server, { [expectedIssuerHook]: (result: { claims: Readonly<Record<string, unknown>> }) => resolveIssuer(issuer, result.claims) ?? '' })
    }
    return server
  }
  return discover(provider, clock)
}

const discovered = new WeakMap<ConfiguredProvider, { server: oauth.AuthorizationServer; until: number }>()

async function discover(provider: ConfiguredProvider, clock: ClockLike): Promise<oauth.AuthorizationServer> {
  const now = clock.now().getTime()
  const cached = discovered.get(provider)
  if (cached && cached.until > now) return cached.server
  const issuer = new URL(provider.definition.issuer as string)
  const response = await oauth.discoveryRequest(issuer, { ...transport(issuer), algorithm: 'oidc' })
  const server = await oauth.processDiscoveryResponse(issuer, response)
  // A failed discovery is not cached: the next sign-in tries again.
  discovered.set(provider, { server, until: now + DISCOVERY_CACHE_MS })
  return server
}

/** Timeout on every request; plain http only for a loopback provider (registry.ts refuses any other). */
function transport(url: URL | string | undefined): { signal: () => AbortSignal; [oauth.allowInsecureRequests]?: boolean } {
  const parsed = typeof url === 'string' ? new URL(url) : url
  const insecure = parsed !== undefined && parsed.protocol === 'http:' && isLoopback(parsed)
  return { signal: () => AbortSignal.timeout(PROVIDER_TIMEOUT_MS), ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}) }
}

/** oauth4webapi's client, with the auth's clock expressed as a skew from the wall clock. */
function clientFor(provider: ConfiguredProvider, clock: ClockLike): oauth.Client {
  const skew = Math.round((clock.now().getTime() - Date.now()) / 1000)
  return {
    client_id: provider.definition.clientId,
    ...(skew === 0 ? {} : { [oauth.clockSkew]: skew }),
    ...(provider.definition.idTokenAlgorithms?.[0] ? { id_token_signed_response_alg: provider.definition.idTokenAlgorithms[0] } : {}),
  }
}

async function clientAuthentication(provider: ConfiguredProvider, ctx: ProviderRequestContext): Promise<oauth.ClientAuth> {
  const definition = provider.definition
  const secret = definition.clientSecret ? await definition.clientSecret(ctx) : definition.clientSecretValue
  // No secret: a public client, protected by PKCE alone.
  if (secret === undefined || secret === '') return oauth.None()
  return definition.tokenAuthMethod === 'client_secret_post' ? oauth.ClientSecretPost(secret) : oauth.ClientSecretBasic(secret)
}

/** Whether the flow is OpenID Connect: the provider has an issuer and `openid` is requested, so a nonce is sent and an ID Token expected. */
export function usesOpenId(provider: ConfiguredProvider, scopes: readonly string[]): boolean {
  return provider.definition.issuer !== undefined && scopes.includes('openid')
}

/** The scopes a sign-in asks for: the provider's defaults (unless disabled), the configured ones, the request's. */
export function requestedScopes(provider: ConfiguredProvider, extra: readonly string[] = []): string[] {
  const base = provider.config.disableDefaultScope ? [] : provider.definition.scopes
  return [...new Set([...base, ...(provider.config.scopes ?? []), ...extra])]
}

export interface AuthorizationRequest {
  readonly state: string
  readonly codeVerifier: string
  readonly nonce: string | null
  readonly scopes: readonly string[]
  readonly loginHint?: string
}

/** The URL the browser is sent to (RFC 6749 §4.1.1, RFC 7636 §4.3, OpenID Connect Core §3.1.2.1). */
export async function authorizationUrl(
  provider: ConfiguredProvider,
  server: oauth.AuthorizationServer,
  request: AuthorizationRequest,
): Promise<string> {
  const definition = provider.definition
  if (!server.authorization_endpoint) throw new Error(`provider ${provider.id} has no authorization endpoint`)
  const url = new URL(server.authorization_endpoint)
  const params = url.searchParams
  params.set('response_type', 'code')
  params.set('client_id', definition.clientId)
  params.set('redirect_uri', provider.redirectURI)
  if (request.scopes.length > 0) params.set('scope', request.scopes.join(definition.scopeSeparator ?? ' '))
  params.set('state', request.state)
  if (definition.pkce !== false) {
    params.set('code_challenge', await oauth.calculatePKCECodeChallenge(request.codeVerifier))
    params.set('code_challenge_method', 'S256')
  }
  if (request.nonce !== null) params.set('nonce', request.nonce)
  if (definition.responseMode === 'form_post') params.set('response_mode', 'form_post')
  if (request.loginHint) params.set('login_hint', request.loginHint)
  for (const [name, value] of Object.entries({ ...definition.authorizationParams, ...provider.config.authorizationParams })) {
    params.set(name, value)
  }
  definition.customizeAuthorizationUrl?.(url)
  return url.toString()
}

export interface ExchangedTokens {
  readonly tokens: ProviderTokens
  /** The validated ID Token claims, when the provider sent an ID Token. */
  readonly idTokenClaims: Readonly<Record<string, unknown>> | null
}

/**
 * Checks the authorization response and trades its code for tokens
 * (RFC 6749 §4.1.3). `expectedState` is the state the browser's cookie and the
 * stored record agree on; oauth4webapi compares it again with the response's.
 */
export async function exchangeCode(
  provider: ConfiguredProvider,
  server: oauth.AuthorizationServer,
  callbackParams: URLSearchParams,
  expected: { state: string; codeVerifier: string; nonce: string | null; scopes: readonly string[] },
  ctx: ProviderRequestContext,
  clock: ClockLike,
): Promise<ExchangedTokens> {
  const client = clientFor(provider, clock)
  const validated = oauth.validateAuthResponse(server, client, callbackParams, expected.state)
  const response = await oauth.authorizationCodeGrantRequest(
    server,
    client,
    await clientAuthentication(provider, ctx),
    validated,
    provider.redirectURI,
    provider.definition.pkce === false ? oauth.nopkce : expected.codeVerifier,
    tokenRequestOptions(provider, server, ctx),
  )
  const result = await oauth.processAuthorizationCodeResponse(
    server,
    client,
    response,
    expected.nonce === null ? {} : { expectedNonce: expected.nonce },
  )
  return toTokens(result, expected.scopes, clock)
}

/** Trades a refresh token for fresh tokens (RFC 6749 §6). */
export async function refreshTokens(
  provider: ConfiguredProvider,
  refreshToken: string,
  previousScopes: readonly string[],
  ctx: ProviderRequestContext,
  clock: ClockLike,
): Promise<ExchangedTokens> {
  const server = await authorizationServer(provider, clock)
  const client = clientFor(provider, clock)
  const response = await oauth.refreshTokenGrantRequest(
    server,
    client,
    await clientAuthentication(provider, ctx),
    refreshToken,
    tokenRequestOptions(provider, server, ctx),
  )
  const result = await oauth.processRefreshTokenResponse(server, client, response)
  const exchanged = toTokens(result, previousScopes, clock)
  // RFC 6749 §6: a provider that does not rotate refresh tokens sends none back; the old one stays valid.
  return exchanged.tokens.refreshToken ? exchanged : { ...exchanged, tokens: { ...exchanged.tokens, refreshToken } }
}

function tokenRequestOptions(
  provider: ConfiguredProvider,
  server: oauth.AuthorizationServer,
  ctx: ProviderRequestContext,
): oauth.TokenEndpointRequestOptions {
  const normalize = provider.definition.normalizeTokenResponse
  const extra = provider.definition.tokenRequestParams?.(ctx)
  return {
    ...transport(server.token_endpoint),
    ...(extra && Object.keys(extra).length > 0 ? { additionalParameters: { ...extra } } : {}),
    ...(normalize ? { [oauth.customFetch]: normalizingFetch(normalize) } : {}),
  }
}

/** Rewrites a non-standard token response before oauth4webapi checks it. */
function normalizingFetch(normalize: (body: Record<string, unknown>) => Record<string, unknown>) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const response = await fetch(url, init)
    if (!response.ok) return response
    const body = (await response.json()) as unknown
    const fixed = typeof body === 'object' && body !== null && !Array.isArray(body) ? normalize(body as Record<string, unknown>) : body
    return new Response(JSON.stringify(fixed), { status: response.status, headers: { 'content-type': 'application/json' } })
  }
}

function toTokens(result: oauth.TokenEndpointResponse, fallbackScopes: readonly string[], clock: ClockLike): ExchangedTokens {
  const now = clock.now().getTime()
  const refreshExpiresIn = (result as { refresh_token_expires_in?: unknown }).refresh_token_expires_in
  const claims = oauth.getValidatedIdTokenClaims(result)
  return {
    tokens: {
      accessToken: result.access_token,
      refreshToken: result.refresh_token ?? null,
      idToken: result.id_token ?? null,
      tokenType: result.token_type,
      accessTokenExpiresAt: typeof result.expires_in === 'number' ? new Date(now + result.expires_in * 1000) : null,
      refreshTokenExpiresAt: typeof refreshExpiresIn === 'number' ? new Date(now + refreshExpiresIn * 1000) : null,
      // RFC 6749 §5.1: the granted scope when it differs from the request; some providers join with commas.
      scopes: typeof result.scope === 'string' ? splitScope(result.scope) : [...fallbackScopes],
    },
    idTokenClaims: claims ? { ...claims } : null,
  }
}

export function splitScope(scope: string): string[] {
  return scope.split(/[\s,]+/).filter((item) => item.length > 0)
}

/** A fetch cut off after {@link PROVIDER_TIMEOUT_MS}, that never follows redirects to another host by itself. */
export function timedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) })
}

/** The context `getUserInfo` and `clientSecret` receive. */
export function providerRequestContext(args: {
  clock: ClockLike
  idTokenClaims: Readonly<Record<string, unknown>> | null
  userInfoEndpoint: string | null
  callbackParams: URLSearchParams | null
}): ProviderRequestContext {
  return {
    fetch: timedFetch,
    async fetchJson(url, accessToken, headers = {}) {
      const response = await timedFetch(url, {
        headers: { accept: 'application/json', ...headers, authorization: `Bearer ${accessToken}` },
      })
      if (!response.ok) throw new Error(`provider answered ${response.status}`)
      return (await response.json()) as unknown
    },
    idTokenClaims: args.idTokenClaims,
    userInfoEndpoint: args.userInfoEndpoint,
    callbackParams: args.callbackParams,
    now: () => args.clock.now(),
  }
}
