/**
 * @module
 * What the shared key store works for (docs/plugins.md#signing-keys-shared-by-plugins):
 * each plugin that signs declares `signingKeys: { algorithms, tokenLifetime,
 * rotationInterval? }`; the store serves the union. Every algorithm any plugin
 * asks for has a key; a retired key stays published for the longest token
 * lifetime any plugin declares (so no token of any plugin outlives its key);
 * keys rotate at the shortest interval any plugin asks for.
 */
import type { AuthContext } from '../types/contract.js'
import type { SigningAlgorithm } from '../types/signing.js'

export type { SigningKeyNeeds } from '../types/signing.js'

export interface SigningKeyPolicy {
  readonly algorithms: readonly SigningAlgorithm[]
  readonly tokenLifetime: number
  readonly rotationInterval: number
}

export const DEFAULT_ROTATION_INTERVAL = 30 * 86_400

/**
 * The union of the needs of `auth`'s plugins.
 *
 * @throws Error when no plugin declares `signingKeys`: nothing should sign then.
 *
 * @example
 * signingKeyPolicy(ctx.auth) // { algorithms: ['RS256', 'EdDSA'], tokenLifetime: 3600, rotationInterval: 2592000 }
 */
export function signingKeyPolicy(auth: Pick<AuthContext, 'plugins'>): SigningKeyPolicy {
  const needs = auth.plugins.flatMap((plugin) => (plugin.signingKeys ? [plugin.signingKeys] : []))
  if (needs.length === 0) throw new Error('signing keys: no plugin declares `signingKeys`')
  return {
    algorithms: [...new Set(needs.flatMap((need) => need.algorithms))],
    tokenLifetime: Math.max(...needs.map((need) => need.tokenLifetime)),
    rotationInterval: Math.min(...needs.map((need) => need.rotationInterval ?? DEFAULT_ROTATION_INTERVAL)),
  }
}
