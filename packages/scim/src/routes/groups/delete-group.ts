/**
 * @module
 * DELETE /scim/v2/Groups/:id (RFC 7644 §3.6): the team and its memberships
 * (its members stay members of the organization). 204; 404 for a team not
 * in the organization; 403 for the organization's last team unless the
 * organization plugin allows removing it. `If-Match` is honoured (412).
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { scimNoContent } from '../../protocol/respond.js'
import { checkIfMatch } from '../../protocol/versions.js'
import { groupVersion } from '../../services/group-resource.js'
import { deleteGroup } from '../../services/group-writes.js'
import { SCIM_METADATA, requireGroups, scimHandler, writeContext } from '../scim-handler.js'

/**
 * @example
 * await auth.handler(new Request(`${base}/scim/v2/Groups/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${scimToken}` } })) // 204
 */
export function scimDeleteGroup(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'DELETE',
    path: `${SCIM_BASE_PATH}/Groups/:id`,
    metadata: SCIM_METADATA,
    handler: scimHandler(async (ctx, call) => {
      requireGroups(options)
      const found = await deleteGroup(writeContext(ctx, options, call), ctx.params.id ?? '', (view) => checkIfMatch(ctx.headers, groupVersion(view)))
      if (!found) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      return scimNoContent()
    }),
  })
}
