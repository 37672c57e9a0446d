/**
 * @module
 * GET /jwks: the public signing keys (RFC 7517 §5), fetched by relying
 * parties to verify ID Tokens. Public, so any origin may read it; cached by
 * them for five minutes, short next to a key's published life, so a rotated
 * key is seen long before its predecessor leaves the set.
 */
import { defineEndpoint } from '@gatehouse/core'
import { publicJwks } from '../keys/index.js'
import type { ResolvedOidcOptions } from '../options.js'

export const JWKS_MAX_AGE = 300

/**
 * @example
 * endpoints: { getJwks: getJwks(resolved) }
 */
export function getJwks(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/jwks',
    metadata: { skipRateLimit: true, cors: true },
    handler: async (ctx) => {
      const document = await publicJwks(ctx, options)
      ctx.responseHeaders.set('cache-control', `public, max-age=${JWKS_MAX_AGE}`)
      return document
    },
  })
}
