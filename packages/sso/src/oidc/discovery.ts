/**
 * @module
 * OpenID Connect discovery for an organization's provider
 * (docs/sso.md#openid-connect): the document at the configured
 * `discoveryEndpoint` (default `<issuer>/.well-known/openid-configuration`),
 * fetched through the safe fetch (oidc/transport.ts), checked by
 * oauth4webapi's `processDiscoveryResponse` to name the configured issuer
 * (OpenID Connect Discovery §4.3: a document that names another issuer could
 * make us accept that issuer's tokens as this provider's), then completed
 * with the endpoints the admin gave, which win over the discovered ones.
 * Every endpoint, discovered or given, must be https or on a trusted origin.
 *
 * The result is cached per auth instance for {@link DISCOVERY_TTL_MS} under
 * a key made of the issuer and every endpoint setting, so a provider whose
 * configuration changes is discovered afresh on its next use; a failure is
 * never cached. Registration passes `fresh: true`: the admin is told about
 * the document as it is now.
 */
import type { AuthContext, EndpointContext } from '@gatehouse/core'
import * as oauth from 'oauth4webapi'
import { isUnsafeUrlError } from '../net/unsafe-url-error.js'
import type { OidcConfig } from '../types.js'
import { fetchableEndpoint, isAllowedEndpoint, providerFetch } from './transport.js'

/** A discovery document is reused this long (docs/sso.md#constants). */
export const DISCOVERY_TTL_MS = 600_000
/** Distinct configurations cached per auth instance; the oldest goes first. */
const MAX_CACHED = 500

export type DiscoveryFailure =
  /** The issuer or an endpoint is not an https URL (nor on a trusted origin). */
  | 'invalid_url'
  /** The safe fetch refused the address the host resolved to, or a redirect. */
  | 'unsafe_url'
  /** No answer in time, or the connection failed. */
  | 'unreachable'
  /** An answer other than 200 with a JSON document. */
  | 'invalid_document'
  /** The document names another issuer. */
  | 'issuer_mismatch'
  /** No authorization, token or JWKS endpoint, discovered or given. */
  | 'incomplete'

export type DiscoveryResult =
  | { readonly ok: true; readonly server: oauth.AuthorizationServer }
  /** `message` is for the admin who registers the provider (a 400 body), never for a signing-in user. */
  | { readonly ok: false; readonly reason: DiscoveryFailure; readonly message: string }

type Ctx = Pick<EndpointContext, 'auth' | 'clock'>
type Endpoints = Pick<
  OidcConfig,
  'issuer' | 'discoveryEndpoint' | 'authorizationEndpoint' | 'tokenEndpoint' | 'userInfoEndpoint' | 'jwksEndpoint' | 'skipDiscovery'
>

/**
 * ID Token algorithms accepted from a provider registered without discovery (no
 * `id_token_signing_alg_values_supported` to read): asymmetric ones only, as core's ID-token sign-in.
 */
const UNDISCOVERED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']

const caches = new WeakMap<AuthContext, Map<string, { server: oauth.AuthorizationServer; until: number }>>()

/** `<issuer>/.well-known/openid-configuration`, the issuer's path kept (OpenID Connect Discovery §4). */
export function wellKnownUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
}

/**
 * The provider's authorization server metadata, discovered and completed, or why not.
 *
 * @example
 * const discovered = await discoverOidc(ctx, provider.oidc)
 * if (!discovered.ok) throw new AuthError(CoreErrors.PROVIDER_UNAVAILABLE)
 * discovered.server.token_endpoint // 'https://idp.example.com/oauth2/token'
 */
export async function discoverOidc(ctx: Ctx, config: Endpoints, options: { fresh?: boolean } = {}): Promise<DiscoveryResult> {
  const key = JSON.stringify([
    config.issuer,
    config.discoveryEndpoint ?? null,
    config.authorizationEndpoint ?? null,
    config.tokenEndpoint ?? null,
    config.userInfoEndpoint ?? null,
    config.jwksEndpoint ?? null,
    config.skipDiscovery === true,
  ])
  let cache = caches.get(ctx.auth)
  if (!cache) {
    cache = new Map()
    caches.set(ctx.auth, cache)
  }
  const now = ctx.clock.now().getTime()
  const cached = cache.get(key)
  if (cached && cached.until > now && !options.fresh) return { ok: true, server: cached.server }
  cache.delete(key)

  const result = await discover(ctx, config)
  if (result.ok) {
    cache.set(key, { server: result.server, until: now + DISCOVERY_TTL_MS })
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string)
  }
  return result
}

async function discover(ctx: Ctx, config: Endpoints): Promise<DiscoveryResult> {
  const fail = (reason: DiscoveryFailure, message: string): DiscoveryResult => ({ ok: false, reason, message: `OIDC discovery failed: ${message}` })
  if (!isAllowedEndpoint(ctx, config.issuer)) return fail('invalid_url', `the issuer ${config.issuer} must be an https URL, or on a trusted origin`)
  if (config.skipDiscovery) {
    return complete(ctx, { issuer: config.issuer, id_token_signing_alg_values_supported: UNDISCOVERED_ALGORITHMS }, config, fail)
  }
  const documentUrl = config.discoveryEndpoint || wellKnownUrl(config.issuer)
  const refused = fetchableEndpoint(ctx, documentUrl)
  if (refused) return fail('invalid_url', `the discovery endpoint ${refused}`)

  let response: Response
  try {
    // A plain GET through the safe fetch rather than oauth4webapi's discoveryRequest: the admin may name a
    // discovery URL other than the issuer's well-known one (a tenant-specific document), which discoveryRequest cannot.
    response = await providerFetch(ctx)(documentUrl, { headers: { accept: 'application/json' }, redirect: 'manual' })
  } catch (error) {
    if (isUnsafeUrlError(error) && error.reason === 'too_large') return fail('invalid_document', `${documentUrl} answered too large a document`)
    if (isUnsafeUrlError(error) && error.reason !== 'timeout') return fail('unsafe_url', `${documentUrl} was refused (${error.reason})`)
    return fail('unreachable', `${documentUrl} did not answer`)
  }

  let document: oauth.AuthorizationServer
  try {
    if (response.status !== 200) return fail('invalid_document', `${documentUrl} answered HTTP ${response.status}`)
    document = await oauth.processDiscoveryResponse(new URL(config.issuer), response)
  } catch (error) {
    if (error instanceof oauth.OperationProcessingError && error.code === oauth.JSON_ATTRIBUTE_COMPARISON) {
      const named = (error.cause as { body?: { issuer?: unknown } } | undefined)?.body?.issuer
      return fail('issuer_mismatch', `the document at ${documentUrl} names the issuer ${String(named)}, not ${config.issuer}`)
    }
    return fail('invalid_document', `${documentUrl} did not answer with a discovery document`)
  }

  return complete(ctx, document, config, fail)
}

/** The document with the configured endpoints over the discovered ones, each checked. */
function complete(
  ctx: Ctx,
  document: oauth.AuthorizationServer,
  config: Endpoints,
  fail: (reason: DiscoveryFailure, message: string) => DiscoveryResult,
): DiscoveryResult {
  const { userinfo_endpoint: discoveredUserInfo, ...rest } = document
  const userInfo = config.userInfoEndpoint || discoveredUserInfo
  const server: oauth.AuthorizationServer = {
    ...rest,
    authorization_endpoint: config.authorizationEndpoint || document.authorization_endpoint,
    token_endpoint: config.tokenEndpoint || document.token_endpoint,
    jwks_uri: config.jwksEndpoint || document.jwks_uri,
    ...(userInfo ? { userinfo_endpoint: userInfo } : {}),
  }
  const missing = (['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const).filter((name) => !server[name])
  if (missing.length > 0) return fail('incomplete', `no ${missing.join(', ')} in the discovery document nor in the configuration`)
  // Discovered or given, the same rules: the document comes from the organization too.
  if (!isAllowedEndpoint(ctx, server.authorization_endpoint as string)) {
    return fail('invalid_url', `authorization_endpoint ${String(server.authorization_endpoint)} must be an https URL, or on a trusted origin`)
  }
  for (const name of ['token_endpoint', 'jwks_uri', 'userinfo_endpoint'] as const) {
    const value = server[name]
    if (value === undefined) continue
    const refused = typeof value === 'string' ? fetchableEndpoint(ctx, value) : `${String(value)} is not a URL`
    if (refused) return fail('invalid_url', `${name} ${refused}`)
  }
  return { ok: true, server }
}
