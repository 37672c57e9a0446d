/**
 * @module
 * PUT /scim/v2/Users/:id (RFC 7644 §3.5.1): the member's record replaced by
 * the body (docs/scim.md#updating-users), Okta's way of updating a user.
 * `active: false` suspends the member and ends its sessions within this
 * request; `true` restores it; left out, the member keeps its state. An
 * owner cannot be deactivated (403). `If-Match` is honoured (412).
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { parseProjection } from '../../protocol/projection.js'
import { scimJson } from '../../protocol/respond.js'
import { checkIfMatch } from '../../protocol/versions.js'
import { readUserInput } from '../../services/user-input.js'
import { findUserView, renderUser } from '../../services/user-resource.js'
import { replaceUser } from '../../services/user-writes.js'
import { bodyOf, projectionQuery, SCIM_METADATA, scimBody, scimHandler, writeContext, type ProjectionQuery } from '../scim-handler.js'

/**
 * @example
 * await auth.handler(new Request(`${base}/scim/v2/Users/${id}`, { method: 'PUT', headers, body: JSON.stringify({ ...user, active: false }) }))
 */
export function scimReplaceUser(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'PUT',
    path: `${SCIM_BASE_PATH}/Users/:id`,
    body: scimBody,
    query: projectionQuery,
    metadata: SCIM_METADATA,
    handler: scimHandler<ProjectionQuery>(async (ctx, call) => {
      const id = ctx.params.id ?? ''
      const input = readUserInput(bodyOf(ctx))
      const groups = { groups: options.groups }
      const found = await replaceUser(writeContext(ctx, options, call), id, (view) => {
        checkIfMatch(ctx.headers, (renderUser(view, call.base, groups).meta as { version: string }).version)
        return input
      })
      const view = found ? await findUserView(ctx.db, call.organizationId, id, groups) : null
      if (!view) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      const resource = renderUser(view, call.base, groups)
      return scimJson(parseProjection('User', ctx.query).apply(resource), { etag: (resource.meta as { version: string }).version })
    }),
  })
}
