/**
 * @module
 * POST /scim/v2/Groups (RFC 7644 §3.3): a team of the token's organization
 * (docs/scim.md#groups), Okta's "push group" and Entra ID's group
 * provisioning. 201 with the group, `Location` and `ETag`; 409 when a group
 * of the directory already has the name or `externalId`; 400 when a member
 * is not a member of the organization.
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { parseProjection } from '../../protocol/projection.js'
import { scimJson } from '../../protocol/respond.js'
import { readGroupInput } from '../../services/group-input.js'
import { findGroupView, groupVersion, renderGroup } from '../../services/group-resource.js'
import { createGroup } from '../../services/group-writes.js'
import { bodyOf, projectionQuery, SCIM_METADATA, scimBody, requireGroups, scimHandler, writeContext, type ProjectionQuery } from '../scim-handler.js'

/**
 * @example
 * await auth.handler(new Request(`${base}/scim/v2/Groups`, { method: 'POST', headers, body: JSON.stringify({ schemas: [GROUP_SCHEMA], displayName: 'Engineering' }) }))
 */
export function scimCreateGroup(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'POST',
    path: `${SCIM_BASE_PATH}/Groups`,
    body: scimBody,
    query: projectionQuery,
    metadata: SCIM_METADATA,
    handler: scimHandler<ProjectionQuery>(async (ctx, call) => {
      requireGroups(options)
      const input = readGroupInput(bodyOf(ctx))
      const teamId = await createGroup(writeContext(ctx, options, call), input)
      const view = await findGroupView(ctx.db, call.organizationId, teamId, true)
      if (!view) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      const resource = renderGroup(view, call.base)
      return scimJson(parseProjection('Group', ctx.query).apply(resource), { status: 201, location: `${call.base}/Groups/${teamId}`, etag: groupVersion(view) })
    }),
  })
}
