/**
 * @module
 * GET /scim/v2/ResourceTypes and /scim/v2/ResourceTypes/:id (RFC 7644 §4,
 * RFC 7643 §6): User, and Group with groups on. Served without a token.
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { resourceTypeDocuments } from '../../protocol/discovery.js'
import { listResponse } from '../../protocol/list.js'
import { scimErrorResponse, scimJson } from '../../protocol/respond.js'

/**
 * @example
 * const { Resources } = await (await auth.handler(new Request(`${base}/scim/v2/ResourceTypes`))).json()
 */
export function scimResourceTypes(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'GET',
    path: `${SCIM_BASE_PATH}/ResourceTypes`,
    metadata: { skipOriginCheck: true },
    handler: (ctx) => {
      const documents = resourceTypeDocuments(ctx.auth.baseURL, options.groups)
      return scimJson(listResponse(documents, documents.length, { startIndex: 1, count: documents.length }))
    },
  })
}

export function scimResourceType(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'GET',
    path: `${SCIM_BASE_PATH}/ResourceTypes/:id`,
    metadata: { skipOriginCheck: true },
    handler: (ctx) => {
      const wanted = (ctx.params.id ?? '').toLowerCase()
      const found = resourceTypeDocuments(ctx.auth.baseURL, options.groups).find((document) => document.id.toLowerCase() === wanted)
      return found ? scimJson(found) : scimErrorResponse(new ScimError(ScimErrors.RESOURCE_NOT_FOUND, { message: 'Resource type not found' }))
    },
  })
}
