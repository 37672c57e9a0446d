/**
 * @module
 * Which algorithms the provider's keys are made for. RS256 always has a key:
 * OpenID Connect Discovery §3 requires RS256 among the ID Token algorithms so
 * any relying party can verify. The keys themselves, their parameters and
 * their store are core's, shared with other plugins that sign
 * (docs/plugins.md#signing-keys-shared-by-plugins).
 */
import { SUPPORTED_ALGORITHMS } from '@gatehouse/core'
import type { ResolvedOidcOptions } from '../options.js'

export { isSigningAlgorithm, RSA_MODULUS_LENGTH, SUPPORTED_ALGORITHMS } from '@gatehouse/core'

/**
 * The configured default first, then RS256, then the additional ones, without repeats.
 *
 * @example
 * signingAlgorithms(resolveOidcOptions({ loginPage: '/login', signing: { algorithm: 'ES256' } })) // ['ES256', 'RS256']
 */
export function signingAlgorithms(options: Pick<ResolvedOidcOptions, 'signing'>) {
  const wanted = [options.signing.algorithm, 'RS256' as const, ...options.signing.additionalAlgorithms]
  return [...new Set(wanted)].filter((alg) => SUPPORTED_ALGORITHMS.includes(alg))
}
