/**
 * @module
 * Which algorithms get keys, and the key parameters for each. RS256 always
 * has a key: OpenID Connect Discovery §3 requires RS256 among the ID Token
 * algorithms so any relying party can verify. RSA keys are 2048 bits, the
 * smallest size allowed; ES256 uses P-256 and EdDSA uses Ed25519.
 */
import type { GenerateKeyPairOptions } from 'jose'
import type { ResolvedOidcOptions, SigningAlgorithm } from '../options.js'

export const SUPPORTED_ALGORITHMS: readonly SigningAlgorithm[] = ['RS256', 'ES256', 'EdDSA']

export const RSA_MODULUS_LENGTH = 2048

/**
 * The configured default first, then RS256, then the additional ones, without repeats.
 *
 * @example
 * signingAlgorithms(resolveOidcOptions({ loginPage: '/login', signing: { algorithm: 'ES256' } })) // ['ES256', 'RS256']
 */
export function signingAlgorithms(options: Pick<ResolvedOidcOptions, 'signing'>): readonly SigningAlgorithm[] {
  const wanted = [options.signing.algorithm, 'RS256' as const, ...options.signing.additionalAlgorithms]
  return [...new Set(wanted)].filter((alg) => SUPPORTED_ALGORITHMS.includes(alg))
}

/**
 * @example
 * isSigningAlgorithm(row.alg) // false for 'none', 'HS256' or anything else we never make
 */
export function isSigningAlgorithm(value: unknown): value is SigningAlgorithm {
  return typeof value === 'string' && (SUPPORTED_ALGORITHMS as readonly string[]).includes(value)
}

/**
 * @example
 * const pair = await generateKeyPair('RS256', keyPairOptions('RS256')) // 2048-bit, private half exportable for storage
 */
export function keyPairOptions(alg: SigningAlgorithm): GenerateKeyPairOptions {
  switch (alg) {
    case 'RS256':
      return { modulusLength: RSA_MODULUS_LENGTH, extractable: true }
    case 'ES256':
      return { extractable: true }
    case 'EdDSA':
      return { crv: 'Ed25519', extractable: true }
  }
}
