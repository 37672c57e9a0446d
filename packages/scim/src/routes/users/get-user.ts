/**
 * @module
 * GET /scim/v2/Users/:id (RFC 7644 §3.4.1): a member of the token's
 * organization, with `ETag`; 404 for any other id, another organization's
 * user included (the answer is the same as for an id that never existed).
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { parseProjection } from '../../protocol/projection.js'
import { scimJson } from '../../protocol/respond.js'
import { findUserView, renderUser } from '../../services/user-resource.js'
import { projectionQuery, SCIM_METADATA, scimHandler, type ProjectionQuery } from '../scim-handler.js'

/**
 * @example
 * const response = await auth.handler(new Request(`${base}/scim/v2/Users/${userId}`, { headers: { authorization: `Bearer ${scimToken}` } }))
 */
export function scimGetUser(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'GET',
    path: `${SCIM_BASE_PATH}/Users/:id`,
    query: projectionQuery,
    metadata: SCIM_METADATA,
    handler: scimHandler<ProjectionQuery>(async (ctx, call) => {
      const groups = { groups: options.groups }
      const view = await findUserView(ctx.db, call.organizationId, ctx.params.id ?? '', groups)
      if (!view) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      const resource = renderUser(view, call.base, groups)
      const meta = resource.meta as { version: string }
      return scimJson(parseProjection('User', ctx.query).apply(resource), { etag: meta.version })
    }),
  })
}
