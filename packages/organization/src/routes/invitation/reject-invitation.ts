/**
 * @module
 * POST /organization/reject-invitation: the recipient declines a
 * pending invitation. Answers `{ invitation, member: null }`. The status
 * changes by compare-and-set, so a concurrent accept and reject cannot
 * both win.
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { Invitation, ResolvedOptions } from '../../options.js'
import { requireOpenInvitationFor, stillPending } from '../../services/invitations.js'

export function rejectInvitation(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/reject-invitation',
    body: z.lazy(() => z.object({ invitationId: z.string().min(1) })),
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const invitation = await requireOpenInvitationFor(ctx, options, ctx.body.invitationId)
      const updated = await ctx.db.update<Invitation & Row>({ model: 'invitation', where: stillPending(invitation.id), update: { status: 'rejected' } })
      if (!updated) throw new AuthError(OrganizationErrors.FAILED_TO_RETRIEVE_INVITATION)
      return { invitation: updated, member: null }
    },
  })
}
