/**
 * @module
 * POST /organization/cancel-invitation: a member holding
 * `invitation: cancel` cancels any invitation of their organization,
 * whatever its status. The permission is checked on the invitation's own
 * organization and the update is bound to it. Answers the invitation.
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { Invitation, ResolvedOptions } from '../../options.js'
import { requirePermission } from '../../services/authorize.js'

export function cancelInvitation(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/cancel-invitation',
    body: z.lazy(() => z.object({ invitationId: z.string().min(1) })),
    use: [sessionMiddleware],
    handler: async ({ body, db, session }) => {
      const invitation = await db.findOne<Invitation & Row>({ model: 'invitation', where: { field: 'id', value: body.invitationId } })
      if (!invitation) throw new AuthError(OrganizationErrors.INVITATION_NOT_FOUND)
      const organizationId = invitation.organizationId
      await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { invitation: ['cancel'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION,
      })
      const updated = await db.update<Invitation & Row>({
        model: 'invitation',
        where: [
          { field: 'id', value: invitation.id },
          { field: 'organizationId', value: organizationId },
        ],
        update: { status: 'canceled' },
      })
      if (!updated) throw new AuthError(OrganizationErrors.INVITATION_NOT_FOUND)
      return updated
    },
  })
}
