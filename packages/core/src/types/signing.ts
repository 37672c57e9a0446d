/**
 * @module
 * What a plugin declares of the shared signing keys
 * (docs/plugins.md#signing-keys-shared-by-plugins); the store lives in
 * `signing-keys/`.
 */

export type SigningAlgorithm = 'RS256' | 'ES256' | 'EdDSA'

/** A plugin's needs of the shared signing keys. */
export interface SigningKeyNeeds {
  readonly algorithms: readonly SigningAlgorithm[]
  /** Seconds the longest-lived token signed with these keys stays valid. */
  readonly tokenLifetime: number
  /** Seconds a key signs before its successor takes over. Default 30 days. */
  readonly rotationInterval?: number | undefined
}
