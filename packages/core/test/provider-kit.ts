/**
 * What the named providers' unit tests (src/social/providers/*.test.ts)
 * stand on: a provider built the way `createAuth` builds it, its
 * authorization URL as the sign-in route makes it, and its `getUserInfo`
 * run through the real request context against a stubbed `fetch` that
 * answers recorded-shape payloads and logs every request.
 */
import { vi } from 'vitest'
import { authorizationServer, authorizationUrl, providerRequestContext, requestedScopes, usesOpenId } from '../src/social/protocol.js'
import { buildSocialProviders } from '../src/social/registry.js'
import type {
  ConfiguredProvider,
  NamedProviderConfigs,
  NamedProviderId,
  ProviderTokens,
  ProviderUserInfo,
  SocialProvidersOptions,
} from '../src/types/social.js'
import { BASE } from './helpers.js'

export const AUTH_BASE = `${BASE}/api/auth`
export const NOW = new Date('2026-03-01T12:00:00.000Z')
const clock = { now: () => NOW }

export const STATE = 's'.repeat(32)
export const VERIFIER = 'v'.repeat(128)
export const NONCE = 'n'.repeat(32)

/** The provider `createAuth({ socialProviders: { [id]: config } })` would use. */
export function configure<K extends NamedProviderId>(id: K, config: NamedProviderConfigs[K]): ConfiguredProvider {
  const provider = buildSocialProviders({ [id]: config } as SocialProvidersOptions, AUTH_BASE).get(id)
  if (!provider) throw new Error(`no provider ${id}`)
  return provider
}

/** The authorization URL for a fixed state, verifier and (for OpenID Connect) nonce. */
export async function authorizeURL(provider: ConfiguredProvider, extraScopes: readonly string[] = []): Promise<URL> {
  const scopes = requestedScopes(provider, extraScopes)
  const server = await authorizationServer(provider, clock)
  const nonce = usesOpenId(provider, scopes) ? NONCE : null
  return new URL(await authorizationUrl(provider, server, { state: STATE, codeVerifier: VERIFIER, nonce, scopes }))
}

export interface RecordedRequest {
  readonly method: string
  readonly url: string
  readonly headers: Headers
  readonly body: string
}

/** Answers by full URL (query included); anything else is a 404, so an unexpected call fails the test. */
export type Answers = Readonly<Record<string, unknown>>

/** Stubs the global fetch with `answers` (JSON bodies, or a Response to send as is) and returns the request log. */
export function stubProvider(answers: Answers): RecordedRequest[] {
  const log: RecordedRequest[] = []
  vi.stubGlobal('fetch', async (input: string | URL | Request, init: RequestInit = {}) => {
    const request = new Request(input, init)
    log.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() })
    if (!Object.hasOwn(answers, request.url)) return new Response('{"error":"not_found"}', { status: 404 })
    const answer = answers[request.url]
    return answer instanceof Response ? answer : Response.json(answer)
  })
  return log
}

export const ACCESS_TOKEN = 'provider-access-token'

export function tokens(overrides: Partial<ProviderTokens> = {}): ProviderTokens {
  return {
    accessToken: ACCESS_TOKEN,
    refreshToken: null,
    idToken: null,
    tokenType: 'bearer',
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scopes: [],
    ...overrides,
  }
}

/** Runs the provider's `getUserInfo` as the callback does, with the given validated claims and callback parameters. */
export function userInfo(
  provider: ConfiguredProvider,
  options: { tokens?: ProviderTokens; idTokenClaims?: Record<string, unknown>; callbackParams?: URLSearchParams } = {},
): Promise<ProviderUserInfo | null> {
  const ctx = providerRequestContext({
    clock,
    idTokenClaims: options.idTokenClaims ?? null,
    userInfoEndpoint: provider.definition.userInfoEndpoint ?? null,
    callbackParams: options.callbackParams ?? null,
  })
  return provider.definition.getUserInfo(options.tokens ?? tokens(), ctx)
}

/** The context the protocol layer hands a provider's functions (`tokenRequestParams`, `clientSecret`...). */
export function requestContext(callbackParams: URLSearchParams | null = null) {
  return providerRequestContext({ clock, idTokenClaims: null, userInfoEndpoint: null, callbackParams })
}

/** The client secret the token request would use (minted per request for Apple). */
export async function clientSecret(provider: ConfiguredProvider): Promise<string | undefined> {
  const definition = provider.definition
  if (!definition.clientSecret) return definition.clientSecretValue
  return definition.clientSecret(requestContext())
}

/** The query of an authorization URL as a plain object, for one `toEqual`. */
export function query(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams)
}
