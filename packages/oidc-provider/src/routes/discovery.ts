/**
 * @module
 * GET /.well-known/openid-configuration: the provider metadata (OpenID
 * Connect Discovery 1.0 §4), built from the configuration alone (keys/discovery.ts).
 * Public, so any origin may read it (single-page relying parties do).
 */
import { defineEndpoint } from '@gatehouse/core'
import { discoveryDocument } from '../keys/index.js'
import type { ResolvedOidcOptions } from '../options.js'

export const DISCOVERY_MAX_AGE = 3600

/**
 * @example
 * endpoints: { getOpenIdConfiguration: getOpenIdConfiguration(resolved) }
 */
export function getOpenIdConfiguration(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/.well-known/openid-configuration',
    metadata: { skipRateLimit: true, cors: true },
    handler: (ctx) => {
      ctx.responseHeaders.set('cache-control', `public, max-age=${DISCOVERY_MAX_AGE}`)
      return discoveryDocument(ctx, options)
    },
  })
}
