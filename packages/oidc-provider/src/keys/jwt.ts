/**
 * @module
 * Signing and verifying the provider's JWTs (ID Tokens) with core's shared
 * keys (docs/plugins.md#signing-keys-shared-by-plugins), the published key
 * set, and `at_hash`. Every JWS and JWK operation goes through jose.
 */
import { createHash } from 'node:crypto'
import { signingKeys, type KeyContext } from '@gatehouse/core'
import { base64url, type JWK, type JWTPayload } from 'jose'
import type { ResolvedOidcOptions, SigningAlgorithm } from '../options.js'
import { signingAlgorithms } from './algorithms.js'
import { issuer } from './issuer.js'

/**
 * Signs `payload` with the current key of `alg` (default: the configured ID
 * Token algorithm). `iss` defaults to {@link issuer} and `iat` to the
 * context's clock; the caller sets `exp`, `aud` and the rest.
 *
 * @example
 * const idToken = await signJwt(ctx, options, { sub: user.id, aud: client.clientId, exp: now + 3600, nonce })
 */
export async function signJwt(
  ctx: KeyContext,
  options: ResolvedOidcOptions,
  payload: JWTPayload,
  opts: { alg?: SigningAlgorithm } = {},
): Promise<string> {
  const alg = opts.alg ?? options.signing.algorithm
  if (!signingAlgorithms(options).includes(alg)) throw new Error(`oidc-provider: ${alg} is not a configured signing algorithm`)
  const now = Math.floor(ctx.auth.clock.now().getTime() / 1000)
  return signingKeys(ctx.auth).sign({ iss: issuer(ctx), iat: now, ...payload }, { alg })
}

/**
 * Verifies a JWT against the published keys: signature, `iss` equal to
 * {@link issuer}, `exp` present and not passed (unless `allowExpired`, for
 * `id_token_hint` at end-session), `aud` when given. Answers null when the
 * token does not verify; only database faults throw.
 *
 * @example
 * const hint = await verifyJwt(ctx, options, query.id_token_hint, { allowExpired: true })
 * if (!hint) return invalidRequest('id_token_hint does not verify')
 */
export async function verifyJwt(
  ctx: KeyContext,
  _options: ResolvedOidcOptions,
  token: string,
  opts: { audience?: string; allowExpired?: boolean } = {},
): Promise<JWTPayload | null> {
  return signingKeys(ctx.auth).verify(token, {
    issuer: issuer(ctx),
    ...(opts.audience !== undefined ? { audience: opts.audience } : {}),
    ...(opts.allowExpired ? { allowExpired: true } : {}),
  })
}

/**
 * `at_hash` (OpenID Connect Core §3.1.3.6): the left half of the hash of the
 * access token's ASCII octets, base64url. SHA-256 for RS256 and ES256;
 * SHA-512 for EdDSA with Ed25519, as the OpenID Foundation specifies for that
 * curve.
 *
 * @example
 * atHash('jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y', 'RS256') // '77QmUPtjPfzWtF2AnpK9RQ'
 */
export function atHash(accessToken: string, alg: SigningAlgorithm): string {
  const digest = createHash(alg === 'EdDSA' ? 'sha512' : 'sha256')
    .update(accessToken, 'utf8')
    .digest()
  return base64url.encode(digest.subarray(0, digest.length / 2))
}

/**
 * The JWKS document: public halves only, each with kid, alg and use "sig".
 * Makes the current keys first when there are none (or they are due).
 *
 * @example
 * const { keys } = await publicJwks(ctx, options)
 */
export function publicJwks(ctx: KeyContext, _options?: ResolvedOidcOptions): Promise<{ keys: JWK[] }> {
  return signingKeys(ctx.auth).publicJwks()
}
