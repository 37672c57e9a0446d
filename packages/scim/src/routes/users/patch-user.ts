/**
 * @module
 * PATCH /scim/v2/Users/:id (RFC 7644 §3.5.2): operations on the member's
 * resource (docs/scim.md#updating-users), Entra ID's way of updating a user
 * and both directories' way of deactivating one
 * (`{"op":"replace","path":"active","value":false}`, or Entra's
 * `{"op":"Replace","path":"active","value":"False"}`). The operations are
 * applied to the resource as it is under the organization's lock, then the
 * result is checked and stored like a PUT. 200 with the resource.
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { applyPatch, readPatch } from '../../protocol/patch.js'
import { parseProjection } from '../../protocol/projection.js'
import { scimJson } from '../../protocol/respond.js'
import { checkIfMatch } from '../../protocol/versions.js'
import { readUserInput } from '../../services/user-input.js'
import { findUserView, renderUser } from '../../services/user-resource.js'
import { replaceUser } from '../../services/user-writes.js'
import { bodyOf, projectionQuery, SCIM_METADATA, scimBody, scimHandler, writeContext, type ProjectionQuery } from '../scim-handler.js'

/**
 * @example
 * const body = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] }
 * await auth.handler(new Request(`${base}/scim/v2/Users/${id}`, { method: 'PATCH', headers, body: JSON.stringify(body) }))
 */
export function scimPatchUser(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'PATCH',
    path: `${SCIM_BASE_PATH}/Users/:id`,
    body: scimBody,
    query: projectionQuery,
    metadata: SCIM_METADATA,
    handler: scimHandler<ProjectionQuery>(async (ctx, call) => {
      const id = ctx.params.id ?? ''
      const operations = readPatch('User', bodyOf(ctx), id)
      const groups = { groups: options.groups }
      const found = await replaceUser(writeContext(ctx, options, call), id, (view) => {
        const current = renderUser(view, call.base, groups)
        checkIfMatch(ctx.headers, (current.meta as { version: string }).version)
        return readUserInput(applyPatch(current, operations))
      })
      const view = found ? await findUserView(ctx.db, call.organizationId, id, groups) : null
      if (!view) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      const resource = renderUser(view, call.base, groups)
      return scimJson(parseProjection('User', ctx.query).apply(resource), { etag: (resource.meta as { version: string }).version })
    }),
  })
}
