/**
 * @module
 * GET /scim/v2/Schemas and /scim/v2/Schemas/:id (RFC 7644 §4, RFC 7643 §7):
 * the User, Enterprise User and (with groups on) Group schemas as a
 * ListResponse, or one of them by its URN (404 otherwise). Served without a
 * token, like ServiceProviderConfig.
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { schemaDocuments } from '../../protocol/discovery.js'
import { listResponse } from '../../protocol/list.js'
import { scimErrorResponse, scimJson } from '../../protocol/respond.js'

/**
 * @example
 * const { Resources } = await (await auth.handler(new Request(`${base}/scim/v2/Schemas`))).json()
 */
export function scimSchemas(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'GET',
    path: `${SCIM_BASE_PATH}/Schemas`,
    metadata: { skipOriginCheck: true },
    handler: (ctx) => {
      const documents = schemaDocuments(ctx.auth.baseURL, options.groups)
      return scimJson(listResponse(documents, documents.length, { startIndex: 1, count: documents.length }))
    },
  })
}

export function scimSchema(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'GET',
    path: `${SCIM_BASE_PATH}/Schemas/:id`,
    metadata: { skipOriginCheck: true },
    handler: (ctx) => {
      const wanted = (ctx.params.id ?? '').toLowerCase()
      const found = schemaDocuments(ctx.auth.baseURL, options.groups).find((document) => document.id.toLowerCase() === wanted)
      return found ? scimJson(found) : scimErrorResponse(new ScimError(ScimErrors.RESOURCE_NOT_FOUND, { message: 'Schema not found' }))
    },
  })
}
