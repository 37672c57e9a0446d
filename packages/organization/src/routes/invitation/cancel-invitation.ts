/**
 * @module
 * POST /organization/cancel-invitation: a member holding
 * `invitation: cancel` cancels a pending invitation of their organization
 * (docs/organization.md#behaviour). The permission is checked on the
 * invitation's own organization and the update is bound to it. Answers the
 * invitation. One already answered is not rewritten: an accepted invitation
 * marked canceled would tell the audit trail, and any hook or interface that
 * reads "canceled" as "never joined", that a member never joined. It answers
 * 400 "Invitation not found" with the invitation's status; an accept that
 * wins the race by a hair answers 400 "Failed to retrieve invitation", as the
 * loser of two concurrent answers does (the update is a compare-and-set).
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { Invitation, ResolvedOptions } from '../../options.js'
import { requirePermission } from '../../services/authorize.js'
import { stillPending } from '../../services/invitations.js'

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
      if (invitation.status !== 'pending') {
        throw new AuthError(OrganizationErrors.INVITATION_NOT_FOUND, { details: { invitationStatus: invitation.status } })
      }
      const updated = await db.update<Invitation & Row>({
        model: 'invitation',
        where: [...stillPending(invitation.id), { field: 'organizationId', value: organizationId }],
        update: { status: 'canceled' },
      })
      if (!updated) throw new AuthError(OrganizationErrors.FAILED_TO_RETRIEVE_INVITATION)
      return updated
    },
  })
}
