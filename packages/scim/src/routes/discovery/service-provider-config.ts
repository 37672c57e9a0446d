/**
 * @module
 * GET /scim/v2/ServiceProviderConfig (RFC 7644 §4, RFC 7643 §5): what this
 * service supports. Served without a token: it says nothing about any
 * organization, and directories read it while a connection is being set up.
 */
import { defineEndpoint } from '@gatehouse/core'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { serviceProviderConfig } from '../../protocol/discovery.js'
import { scimJson } from '../../protocol/respond.js'

/**
 * @example
 * const response = await auth.handler(new Request('https://app.example.com/api/auth/scim/v2/ServiceProviderConfig'))
 */
export function scimServiceProviderConfig(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'GET',
    path: `${SCIM_BASE_PATH}/ServiceProviderConfig`,
    metadata: { skipOriginCheck: true },
    handler: (ctx) => scimJson(serviceProviderConfig(ctx.auth.baseURL, options.documentationUri)),
  })
}
