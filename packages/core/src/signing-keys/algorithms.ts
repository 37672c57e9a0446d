/**
 * @module
 * The signing algorithms the shared key store makes keys for, and their key
 * parameters: RSA keys are 2048 bits, the smallest size allowed; ES256 uses
 * P-256 and EdDSA uses Ed25519 (docs/plugins.md#signing-keys-shared-by-plugins).
 */
import type { GenerateKeyPairOptions } from 'jose'
import type { SigningAlgorithm } from '../types/signing.js'

export type { SigningAlgorithm } from '../types/signing.js'

export const SUPPORTED_ALGORITHMS: readonly SigningAlgorithm[] = ['RS256', 'ES256', 'EdDSA']

export const RSA_MODULUS_LENGTH = 2048

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
