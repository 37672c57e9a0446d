/**
 * @module
 * Signing and verifying the provider's JWTs (ID Tokens) with the stored keys,
 * the published key set, and `at_hash`. Every JWS and JWK operation goes
 * through jose.
 */
import { createHash } from 'node:crypto'
import { base64url, createLocalJWKSet, decodeJwt, errors, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose'
import type { ResolvedOidcOptions, SigningAlgorithm } from '../options.js'
import { signingAlgorithms, SUPPORTED_ALGORITHMS } from './algorithms.js'
import { issuer } from './issuer.js'
import { currentSigningKey, publishedKeys, type KeyContext } from './key-store.js'

/** Private members of RSA, EC and OKP JWKs (RFC 7518 §6): never published, whatever a row holds. */
const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'])

function publicPart(jwk: JWK): JWK {
  return Object.fromEntries(Object.entries(jwk).filter(([member]) => !PRIVATE_MEMBERS.has(member))) as JWK
}

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
  const key = await currentSigningKey(ctx, options, alg)
  const now = Math.floor(ctx.auth.clock.now().getTime() / 1000)
  return new SignJWT({ iss: issuer(ctx), iat: now, ...payload })
    .setProtectedHeader({ alg, kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey)
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
  options: ResolvedOidcOptions,
  token: string,
  opts: { audience?: string; allowExpired?: boolean } = {},
): Promise<JWTPayload | null> {
  const keySet = createLocalJWKSet(await publicJwks(ctx, options))
  const now = ctx.auth.clock.now()
  try {
    let currentDate = now
    if (opts.allowExpired) {
      // Only picks the moment the time claims are judged at; the signature is still checked below.
      const { exp } = decodeJwt(token)
      if (typeof exp === 'number' && exp * 1000 <= now.getTime()) currentDate = new Date(exp * 1000 - 1000)
    }
    const { payload } = await jwtVerify(token, keySet, {
      issuer: issuer(ctx),
      ...(opts.audience !== undefined ? { audience: opts.audience } : {}),
      // Never `none` (jose refuses unsecured JWTs here anyway), never HMAC with a public key as secret.
      algorithms: [...SUPPORTED_ALGORITHMS],
      requiredClaims: ['exp'],
      currentDate,
    })
    return payload
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null
    throw error
  }
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
export async function publicJwks(ctx: KeyContext, options: ResolvedOidcOptions): Promise<{ keys: JWK[] }> {
  const keys = await publishedKeys(ctx, options)
  return { keys: keys.map((key) => ({ ...publicPart(key.publicJwk), kid: key.kid, alg: key.alg, use: 'sig' })) }
}
