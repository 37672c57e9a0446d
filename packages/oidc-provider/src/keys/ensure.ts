/**
 * @module
 * `ensureSigningKeys`: makes the provider's keys (and every other signing
 * plugin's: the store is shared) before the first token, e.g. at deploy time
 * to pay for RSA generation early (docs/oidc-provider.md#signing-keys).
 */
import { signingKeys, type KeyContext } from '@gatehouse/core'
import type { ResolvedOidcOptions } from '../options.js'

/**
 * @example
 * await ensureSigningKeys({ auth: await auth.$context }, resolved)
 */
export function ensureSigningKeys(ctx: KeyContext, _options?: ResolvedOidcOptions): Promise<void> {
  return signingKeys(ctx.auth).ensure()
}
