/**
 * @module
 * GET /scim/v2/Groups/:id (RFC 7644 §3.4.1): a team of the token's
 * organization, with `ETag`; 404 for any other id, another organization's
 * team included. Members are read unless excluded.
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { parseProjection } from '../../protocol/projection.js'
import { scimJson } from '../../protocol/respond.js'
import { findGroupView, groupVersion, renderGroup } from '../../services/group-resource.js'
import { projectionQuery, SCIM_METADATA, requireGroups, scimHandler, type ProjectionQuery } from '../scim-handler.js'

/**
 * @example
 * const response = await auth.handler(new Request(`${base}/scim/v2/Groups/${teamId}`, { headers: { authorization: `Bearer ${scimToken}` } }))
 */
export function scimGetGroup(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'GET',
    path: `${SCIM_BASE_PATH}/Groups/:id`,
    query: projectionQuery,
    metadata: SCIM_METADATA,
    handler: scimHandler<ProjectionQuery>(async (ctx, call) => {
      requireGroups(options)
      const projection = parseProjection('Group', ctx.query)
      const view = await findGroupView(ctx.db, call.organizationId, ctx.params.id ?? '', projection.wants('members'))
      if (!view) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      return scimJson(projection.apply(renderGroup(view, call.base)), { etag: groupVersion(view) })
    }),
  })
}
