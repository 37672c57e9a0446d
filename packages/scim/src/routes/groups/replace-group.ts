/**
 * @module
 * PUT /scim/v2/Groups/:id (RFC 7644 §3.5.1): the team's name, `externalId`
 * and members replaced by the body's; a body without `members` empties the
 * team. `If-Match` is honoured (412).
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { parseProjection } from '../../protocol/projection.js'
import { scimJson } from '../../protocol/respond.js'
import { checkIfMatch } from '../../protocol/versions.js'
import { readGroupInput } from '../../services/group-input.js'
import { findGroupView, groupVersion, renderGroup } from '../../services/group-resource.js'
import { replaceGroup } from '../../services/group-writes.js'
import { bodyOf, projectionQuery, SCIM_METADATA, scimBody, requireGroups, scimHandler, writeContext, type ProjectionQuery } from '../scim-handler.js'

/**
 * @example
 * await auth.handler(new Request(`${base}/scim/v2/Groups/${id}`, { method: 'PUT', headers, body: JSON.stringify({ schemas: [GROUP_SCHEMA], displayName: 'Eng', members: [] }) }))
 */
export function scimReplaceGroup(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'PUT',
    path: `${SCIM_BASE_PATH}/Groups/:id`,
    body: scimBody,
    query: projectionQuery,
    metadata: SCIM_METADATA,
    handler: scimHandler<ProjectionQuery>(async (ctx, call) => {
      requireGroups(options)
      const id = ctx.params.id ?? ''
      const input = readGroupInput(bodyOf(ctx))
      const found = await replaceGroup(writeContext(ctx, options, call), id, (view) => {
        checkIfMatch(ctx.headers, groupVersion(view))
        return input
      })
      const projection = parseProjection('Group', ctx.query)
      const view = found ? await findGroupView(ctx.db, call.organizationId, id, projection.wants('members')) : null
      if (!view) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      return scimJson(projection.apply(renderGroup(view, call.base)), { etag: groupVersion(view) })
    }),
  })
}
