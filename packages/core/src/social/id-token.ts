/**
 * @module
 * ID Tokens posted to `POST /sign-in/social` and `POST /link-social`
 * (docs/social.md#id-token-sign-in): the client got them from the provider's
 * own SDK, so nothing about them is trusted until jose has checked the
 * signature against the provider's published key set and the claims: `iss`
 * one of the provider's issuers, `aud` the client id, `exp` in the future
 * (by the auth's clock), and `nonce` equal to the one the client sent.
 * Key sets are fetched with a 5 s timeout, refetched at most every 30 s
 * when an unknown key id shows up, and cached for 10 minutes.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose'
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import type { Logger } from '../logging/logger.js'
import type { ConfiguredProvider, ProviderTokens, ProviderUserInfo } from '../types/social.js'
import { authorizationServer, requestedScopes, resolveIssuer, TENANT_PLACEHOLDER } from './protocol.js'
import { isLoopback } from './registry.js'
import { fetchUserInfo, idTokenTokens } from './user-info.js'

/** Remote key set timings (docs/social.md#constants). */
export const JWKS_TIMEOUT_MS = 5000
export const JWKS_COOLDOWN_MS = 30_000
export const JWKS_CACHE_MS = 600_000

const DEFAULT_ALGORITHMS = ['RS256', 'ES256', 'PS256', 'EdDSA']

/** Key sets by URL: public data, shared by every auth instance of the process. */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>()

function keySet(url: string): ReturnType<typeof createRemoteJWKSet> {
  let found = keySets.get(url)
  if (!found) {
    found = createRemoteJWKSet(new URL(url), {
      timeoutDuration: JWKS_TIMEOUT_MS,
      cooldownDuration: JWKS_COOLDOWN_MS,
      cacheMaxAge: JWKS_CACHE_MS,
    })
    keySets.set(url, found)
  }
  return found
}

export type IdTokenCheck =
  | { readonly ok: true; readonly claims: JWTPayload & Record<string, unknown> }
  | { readonly ok: false; readonly reason: 'unsupported' | 'invalid' }

/** Whether the provider can take ID-token sign-in at all: an issuer whose keys we can fetch, and not turned off. */
export function supportsIdTokenSignIn(provider: ConfiguredProvider): boolean {
  const definition = provider.definition
  return !provider.config.disableIdTokenSignIn && definition.issuer !== undefined && (definition.jwksUri !== undefined || definition.discovery === true)
}

/**
 * @example
 * const check = await verifyIdToken(provider, body.idToken.token, body.idToken.nonce, ctx.clock)
 * if (!check.ok) throw new AuthError(CoreErrors.INVALID_TOKEN)
 */
export async function verifyIdToken(
  provider: ConfiguredProvider,
  token: string,
  nonce: string | undefined,
  clock: { now(): Date },
): Promise<IdTokenCheck> {
  if (!supportsIdTokenSignIn(provider)) return { ok: false, reason: 'unsupported' }
  const definition = provider.definition
  try {
    const jwksUri = definition.jwksUri ?? (await authorizationServer(provider, clock)).jwks_uri
    if (!jwksUri) return { ok: false, reason: 'unsupported' }
    // A discovered key set over plain http could be swapped on the way: https, or this machine only.
    const keysAt = new URL(jwksUri)
    if (keysAt.protocol !== 'https:' && !(keysAt.protocol === 'http:' && isLoopback(keysAt))) return { ok: false, reason: 'invalid' }
    const issuers = definition.idTokenIssuers ?? [definition.issuer as string]
    const templated = issuers.some((issuer) => issuer.includes(TENANT_PLACEHOLDER))
    const { payload } = await jwtVerify(token, keySet(jwksUri), {
      // A multi-tenant issuer depends on the token's `tid`: checked below, once the signature holds.
      ...(templated ? {} : { issuer: [...issuers] }),
      audience: [...(definition.idTokenAudiences ?? [definition.clientId])],
      algorithms: [...(definition.idTokenAlgorithms ?? DEFAULT_ALGORITHMS)],
      currentDate: clock.now(),
      requiredClaims: ['sub', 'exp', 'iat', 'iss'],
    })
    if (templated && !issuers.some((issuer) => resolveIssuer(issuer, payload) === payload.iss)) return { ok: false, reason: 'invalid' }
    // A nonce on either side must match the other: a token minted for another sign-in is not replayable here.
    if ((nonce !== undefined || payload.nonce !== undefined) && payload.nonce !== nonce) return { ok: false, reason: 'invalid' }
    return { ok: true, claims: payload as JWTPayload & Record<string, unknown> }
  } catch {
    return { ok: false, reason: 'invalid' }
  }
}

/**
 * The ID-token branch shared by sign-in/social and link-social: verifies the
 * posted token, then reads the profile it names; errors are the routes' own
 * (ID_TOKEN_NOT_SUPPORTED, INVALID_TOKEN, FAILED_TO_GET_USER_INFO).
 * @example
 * const { tokens, info } = await idTokenProfile(ctx, provider, body.idToken, body.scopes)
 */
export async function idTokenProfile(
  ctx: { clock: { now(): Date }; logger: Logger },
  provider: ConfiguredProvider,
  idToken: Parameters<typeof idTokenTokens>[0] & { nonce?: string | undefined },
  scopes: readonly string[] | undefined,
): Promise<{ tokens: ProviderTokens; info: ProviderUserInfo }> {
  if (!supportsIdTokenSignIn(provider)) throw new AuthError(CoreErrors.ID_TOKEN_NOT_SUPPORTED)
  const check = await verifyIdToken(provider, idToken.token, idToken.nonce, ctx.clock)
  if (!check.ok) throw new AuthError(check.reason === 'unsupported' ? CoreErrors.ID_TOKEN_NOT_SUPPORTED : CoreErrors.INVALID_TOKEN)
  const tokens = idTokenTokens(idToken, requestedScopes(provider, scopes))
  const info = await fetchUserInfo(provider, tokens, { clock: ctx.clock, logger: ctx.logger, idTokenClaims: check.claims, callbackParams: null })
  if (!info) throw new AuthError(CoreErrors.FAILED_TO_GET_USER_INFO)
  // The verified token names the account; a profile read with a client-supplied access token must be the same one.
  if (info.id !== check.claims.sub) throw new AuthError(CoreErrors.INVALID_TOKEN)
  return { tokens, info }
}
