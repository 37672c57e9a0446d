/**
 * @module
 * Signing and verifying with the shared keys, and the published key set
 * (docs/plugins.md#signing-keys-shared-by-plugins). `signingKeys(auth)` is what
 * a plugin that signs uses (the OIDC provider's ID Tokens, the jwt plugin's
 * session JWTs); `getJwks` is the one `GET /jwks` they all list, so two
 * plugins that sign publish one key set. Every JWS and JWK operation goes
 * through jose.
 */
import { createLocalJWKSet, decodeJwt, errors, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose'
import { defineEndpoint } from '../endpoint/define-endpoint.js'
import type { AuthContext } from '../types/contract.js'
import { SUPPORTED_ALGORITHMS, type SigningAlgorithm } from './algorithms.js'
import { currentSigningKey, ensureSigningKeys, publishedKeys, type CurrentKey, type KeyContext } from './key-store.js'
import { signingKeyPolicy } from './policy.js'

/** Private members of RSA, EC and OKP JWKs (RFC 7518 §6): never published, whatever a row holds. */
const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'])

function publicPart(jwk: JWK): JWK {
  return Object.fromEntries(Object.entries(jwk).filter(([member]) => !PRIVATE_MEMBERS.has(member))) as JWK
}

/** How long relying parties may cache the key set: short next to a key's published life. */
export const JWKS_MAX_AGE = 300

export interface SigningKeys {
  /** Signs `payload` with the current key of `alg`; the header carries `alg`, `kid` and `typ` (default `JWT`). */
  sign(payload: JWTPayload, options: { readonly alg: SigningAlgorithm; readonly typ?: string }): Promise<string>
  currentKey(alg: SigningAlgorithm): Promise<CurrentKey>
  /** The JWKS document: public halves of every key whose tokens may still be live. */
  publicJwks(): Promise<{ keys: JWK[] }>
  /**
   * The payload of a token signed with a published key, `iss` equal to
   * `issuer`, `exp` present and not passed (unless `allowExpired`), `aud` when
   * given; null when it does not verify. Only database faults throw.
   */
  verify(
    token: string,
    options: { readonly issuer: string; readonly audience?: string | readonly string[]; readonly allowExpired?: boolean; readonly typ?: string },
  ): Promise<JWTPayload | null>
  /** Makes sure every algorithm has its current key (and a due successor): e.g. at deploy time. */
  ensure(): Promise<void>
}

/**
 * The shared keys, for the union of what `auth`'s plugins declare.
 *
 * @example
 * const token = await signingKeys(ctx.auth).sign({ sub: user.id, iss, aud, exp }, { alg: 'EdDSA' })
 */
export function signingKeys(auth: AuthContext): SigningKeys {
  const ctx: KeyContext = { auth }
  const policy = () => signingKeyPolicy(auth)
  const jwks = async () => {
    const keys = await publishedKeys(ctx, policy())
    return { keys: keys.map((key) => ({ ...publicPart(key.publicJwk), kid: key.kid, alg: key.alg, use: 'sig' })) }
  }
  return {
    async sign(payload, options) {
      const current = policy()
      if (!current.algorithms.includes(options.alg)) throw new Error(`signing keys: no plugin declares ${options.alg}`)
      const key = await currentSigningKey(ctx, current, options.alg)
      return new SignJWT(payload).setProtectedHeader({ alg: options.alg, kid: key.kid, typ: options.typ ?? 'JWT' }).sign(key.privateKey)
    },
    currentKey: (alg) => currentSigningKey(ctx, policy(), alg),
    publicJwks: jwks,
    async verify(token, options) {
      const keySet = createLocalJWKSet(await jwks())
      const now = auth.clock.now()
      try {
        let currentDate = now
        if (options.allowExpired) {
          // Only picks the moment the time claims are judged at; the signature is still checked below.
          const { exp } = decodeJwt(token)
          if (typeof exp === 'number' && exp * 1000 <= now.getTime()) currentDate = new Date(exp * 1000 - 1000)
        }
        const { payload } = await jwtVerify(token, keySet, {
          issuer: options.issuer,
          ...(options.audience !== undefined ? { audience: options.audience as string | string[] } : {}),
          ...(options.typ !== undefined ? { typ: options.typ } : {}),
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
    },
    ensure: () => ensureSigningKeys(ctx, policy()),
  }
}

/**
 * GET /jwks: the public signing keys (RFC 7517 §5) of every plugin that signs.
 * Public, so any origin may read it; cached by relying parties for five
 * minutes, short next to a key's published life, so a rotated key is seen
 * long before its predecessor leaves the set. Plugins list this one object
 * as `getJwks`; the same object twice is one route.
 *
 * @example
 * endpoints: { getJwks, getToken }
 */
export const getJwks = defineEndpoint({
  method: 'GET',
  path: '/jwks',
  metadata: { skipRateLimit: true, cors: true },
  handler: async (ctx) => {
    const document = await signingKeys(ctx.auth).publicJwks()
    ctx.responseHeaders.set('cache-control', `public, max-age=${JWKS_MAX_AGE}`)
    return document
  },
})
