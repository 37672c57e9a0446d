/**
 * @module
 * POST /scim/v2/Users (RFC 7644 §3.3): a new member of the token's
 * organization (docs/scim.md#creating-users). 201 with the resource,
 * `Location` and `ETag`; 409 `uniqueness` when the `userName` or
 * `externalId` is taken in the organization, or the address belongs to an
 * account the organization may not take in; 400 for a malformed resource.
 */
import { defineEndpoint } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { SCIM_BASE_PATH } from '../../protocol/constants.js'
import { parseProjection } from '../../protocol/projection.js'
import { scimJson } from '../../protocol/respond.js'
import { readUserInput } from '../../services/user-input.js'
import { findUserView, renderUser } from '../../services/user-resource.js'
import { createUser } from '../../services/user-writes.js'
import { bodyOf, projectionQuery, SCIM_METADATA, scimBody, scimHandler, writeContext, type ProjectionQuery } from '../scim-handler.js'

/**
 * @example
 * await auth.api.scimCreateUser({ body: { schemas: [USER_SCHEMA], userName: 'ada@acme.com' }, headers: { authorization: `Bearer ${scimToken}` }, asResponse: true })
 */
export function scimCreateUser(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'POST',
    path: `${SCIM_BASE_PATH}/Users`,
    body: scimBody,
    query: projectionQuery,
    metadata: SCIM_METADATA,
    handler: scimHandler<ProjectionQuery>(async (ctx, call) => {
      const input = readUserInput(bodyOf(ctx))
      const userId = await createUser(writeContext(ctx, options, call), input)
      const groups = { groups: options.groups }
      const view = await findUserView(ctx.db, call.organizationId, userId, groups)
      if (!view) throw new ScimError(ScimErrors.RESOURCE_NOT_FOUND)
      const resource = renderUser(view, call.base, groups)
      const meta = resource.meta as { location: string; version: string }
      return scimJson(parseProjection('User', ctx.query).apply(resource), { status: 201, location: meta.location, etag: meta.version })
    }),
  })
}
