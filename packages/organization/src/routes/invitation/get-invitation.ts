/**
 * @module
 * GET /organization/get-invitation?id=: the invitation with the
 * organization's name and slug and the inviter's email, for its recipient
 * only (docs/organization.md#behaviour), while it is pending and unexpired.
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions } from '../../options.js'
import { requireOpenInvitationFor } from '../../services/invitations.js'
import { findOrganization } from '../../services/organizations.js'

export function getInvitation(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/organization/get-invitation',
    query: z.lazy(() => z.object({ id: z.string().min(1) })),
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const invitation = await requireOpenInvitationFor(ctx, options, ctx.query.id)
      const organization = await findOrganization(ctx.db, { id: invitation.organizationId })
      if (!organization) throw new AuthError(OrganizationErrors.ORGANIZATION_NOT_FOUND)
      const inviter = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: invitation.inviterId } })
      return {
        ...invitation,
        organizationName: organization.name,
        organizationSlug: organization.slug,
        inviterEmail: inviter?.email ?? null,
      }
    },
  })
}
