/**
 * @module
 * `@gatehouse/jwt/verify`: what another service needs to check a session JWT
 * (docs/jwt.md#verifying-in-another-service), with jose alone: the published
 * key set fetched from `jwksUrl` (cached and refreshed by jose's
 * `createRemoteJWKSet`, which also fetches again for a `kid` it has not seen,
 * so a rotated key is picked up without a restart), the signature, `iss`,
 * `aud`, `exp` and the `typ` header. No database, no call to the auth server
 * per request.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose'

/** The claims a session JWT carries (docs/jwt.md#claims); `definePayload` may add more. */
export interface SessionJwtPayload extends JWTPayload {
  readonly sub: string
  readonly email?: string
  readonly email_verified?: boolean
  readonly name?: string
  /** The session's active organization, with the organization plugin. */
  readonly org_id?: string
  /** The member's role in it (comma-separated when several). */
  readonly org_role?: string
}

export interface VerifySessionJwtOptions {
  /** The `iss` the token must carry: the auth server's origin unless configured otherwise. */
  readonly issuer: string
  /** The `aud` the token must name: the auth server's origin unless configured otherwise. */
  readonly audience: string | readonly string[]
  /** The auth server's key set, e.g. `https://app.example.com/api/auth/jwks`. */
  readonly jwksUrl: string | URL
  /** Seconds of clock difference tolerated on `exp`/`nbf`/`iat`. Default 0. */
  readonly clockTolerance?: number
}

/** The signature algorithms the auth server signs with: never `none`, never HMAC. */
const ALGORITHMS = ['EdDSA', 'ES256', 'RS256']

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>()

function keySet(url: string | URL) {
  const href = url.toString()
  let set = keySets.get(href)
  if (!set) {
    set = createRemoteJWKSet(new URL(href))
    keySets.set(href, set)
  }
  return set
}

/** Errors that say the token is bad, as opposed to the key set being unreachable. */
function isTokenProblem(error: unknown): boolean {
  return (
    error instanceof errors.JWTExpired ||
    error instanceof errors.JWTClaimValidationFailed ||
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWKSMultipleMatchingKeys
  )
}

/**
 * The token's claims when it is a valid session JWT of that server, else null.
 * A key set that cannot be fetched throws (answer 503, not 401: the token
 * may be fine).
 *
 * @example
 * const claims = await verifySessionJwt(token, { issuer: 'https://app.example.com', audience: 'https://app.example.com', jwksUrl: 'https://app.example.com/api/auth/jwks' })
 * if (!claims) return new Response('Unauthorized', { status: 401 })
 * claims.sub // the user id
 */
export async function verifySessionJwt(token: string, options: VerifySessionJwtOptions): Promise<SessionJwtPayload | null> {
  try {
    const { payload } = await jwtVerify(token, keySet(options.jwksUrl), {
      issuer: options.issuer,
      audience: options.audience as string | string[],
      algorithms: ALGORITHMS,
      typ: 'JWT',
      requiredClaims: ['exp', 'sub', 'iat'],
      ...(options.clockTolerance === undefined ? {} : { clockTolerance: options.clockTolerance }),
    })
    return typeof payload.sub === 'string' ? (payload as SessionJwtPayload) : null
  } catch (error) {
    if (isTokenProblem(error)) return null
    throw error
  }
}
