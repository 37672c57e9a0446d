/**
 * @module
 * PATCH /scim/v2/Groups/:id (RFC 7644 §3.5.2): renaming and membership
 * changes as Okta and Entra ID send them: `{"op":"add","path":"members",
 * "value":[{"value":"<user id>"}]}`, `{"op":"remove","path":"members[value eq
 * \"<user id>\"]"}`, Entra's `{"op":"Remove","path":"members","value":[…]}`,
 * Okta's path-less `{"op":"replace","value":{"id":…,"displayName":…}}`.
 * Applied to the group as it is under the organization's lock, members
 * read. 204 No Content, as Entra ID's and Okta's guides show it (a large
 * team's members are not sent back on every change); 200 with the group
 * when the request asks for attributes (`attributes`/`excludedAttributes`).
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { applyPatch, readPatch } from '../../protocol/patch.js'
import { parseProjection } from '../../protocol/projection.js'
import { scimJson, scimNoContent } from '../../protocol/respond.js'
import { checkIfMatch } from '../../protocol/versions.js'
import { readGroupInput } from '../../services/group-input.js'
import { findGroupView, groupVersion, renderGroup } from '../../services/group-resource.js'
import { replaceGroup } from '../../services/group-writes.js'
import { bodyOf, projectionQuery, SCIM_METADATA, scimBody, requireGroups, scimHandler, writeContext, type ProjectionQuery } from '../scim-handler.js'

/**
 * @example
 * const body = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'add', path: 'members', value: [{ value: userId }] }] }
 * await auth.handler(new Request(`${base}/scim/v2/Groups/${id}`, { method: 'PATCH', headers, body: JSON.stringify(body) }))
 */
export function scimPatchGroup(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'PATCH',
    path: `${SCIM_BASE_PATH}/Groups/:id`,
    body: scimBody,
    query: projectionQuery,
    metadata: SCIM_METADATA,
    handler: scimHandler<ProjectionQuery>(async (ctx, call) => {
      requireGroups(options)
      const id = ctx.params.id ?? ''
      const operations = readPatch('Group', bodyOf(ctx), id)
      const found = await replaceGroup(writeContext(ctx, options, call), id, (view) => {
        checkIfMatch(ctx.headers, groupVersion(view))
        const current = renderGroup(view, call.base)
        // Members as the library compares them: `{ value }` (protocol/patch.ts).
        current.members = (view.members ?? []).map((member) => ({ value: member.userId }))
        return readGroupInput(applyPatch(current, operations))
      })
      if (!found) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      if (ctx.query.attributes === undefined && ctx.query.excludedAttributes === undefined) return scimNoContent()
      const projection = parseProjection('Group', ctx.query)
      const view = await findGroupView(ctx.db, call.organizationId, id, projection.wants('members'))
      if (!view) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      return scimJson(projection.apply(renderGroup(view, call.base)), { etag: groupVersion(view) })
    }),
  })
}
