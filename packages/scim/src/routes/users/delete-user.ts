/**
 * @module
 * DELETE /scim/v2/Users/:id (RFC 7644 §3.6): the membership ends
 * (docs/scim.md#deleting-users): the member's teams in the organization and
 * the directory's record go, its access ends within this request, and the
 * user row goes too when SCIM created it and it belongs to no other
 * organization. 204; 404 for a user not in the organization; 403 for an
 * owner. `If-Match` is honoured (412).
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { scimNoContent } from '../../protocol/respond.js'
import { checkIfMatch } from '../../protocol/versions.js'
import { renderUser } from '../../services/user-resource.js'
import { deleteUser } from '../../services/user-writes.js'
import { SCIM_METADATA, scimHandler, writeContext } from '../scim-handler.js'

/**
 * @example
 * await auth.handler(new Request(`${base}/scim/v2/Users/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${scimToken}` } })) // 204
 */
export function scimDeleteUser(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'DELETE',
    path: `${SCIM_BASE_PATH}/Users/:id`,
    metadata: SCIM_METADATA,
    handler: scimHandler(async (ctx, call) => {
      const found = await deleteUser(writeContext(ctx, options, call), ctx.params.id ?? '', (view) => {
        if (ctx.headers.has('if-match')) checkIfMatch(ctx.headers, (renderUser(view, call.base, { groups: options.groups }).meta as { version: string }).version)
      })
      if (!found) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      return scimNoContent()
    }),
  })
}
