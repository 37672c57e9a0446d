/**
 * @module
 * POST /organization/leave: the caller leaves the organization; the only
 * owner cannot (docs/organization.md#behaviour), decided on the caller's row as it is
 * under the organization's lock. The organization stops being active on the
 * caller's sessions. Answers the member row that was removed.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions } from '../../options.js'
import { requireMember } from '../../services/authorize.js'
import { removeMembership } from '../../services/remove-membership.js'

export function leaveOrganization(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/leave',
    body: z.lazy(() => z.object({ organizationId: z.string().min(1) })),
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const member = await requireMember(ctx.db, options, ctx.body.organizationId, ctx.session.user.id)
      return removeMembership(ctx, options, member, {
        lastOwner: OrganizationErrors.YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER,
        gone: OrganizationErrors.YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION,
      })
    },
  })
}
