/**
 * @module
 * POST /organization/invite-member: stores a pending invitation valid for
 * `invitationExpiresIn` (default 48 h) and mails it. Needs
 * `invitation: create`; the inviter may only invite with roles that grant
 * no more than their own. Re-inviting an email that already has a pending invitation answers
 * that invitation instead of creating a second one (and mails it again with
 * `resend`). Pending invitations per organization are capped by
 * `invitationLimit`.
 */
import { AuthError, defineEndpoint, deliverMail, sessionMiddleware, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { joinRoles, parseRoles } from '../../access/has-permission.js'
import { OrganizationErrors } from '../../errors.js'
import type { Invitation, ResolvedOptions } from '../../options.js'
import { requireGrantable, requirePermission } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { findMember } from '../../services/members.js'
import { lockOrganization, requireOrganization } from '../../services/organizations.js'
import { requireTeamOf } from '../../services/teams.js'

const body = z.lazy(() =>
  z.object({
    email: z.email(),
    role: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    organizationId: z.string().min(1).optional(),
    teamId: z.string().min(1).optional(),
    resend: z.boolean().optional(),
  }),
)

export function inviteMember(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/invite-member',
    body,
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const { body, db, session } = ctx
      const organizationId = targetOrganization(session, body.organizationId)
      const inviter = await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { invitation: ['create'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION,
      })
      const organization = await requireOrganization(db, { id: organizationId })
      const roles = parseRoles(body.role)
      await requireGrantable(db, options, { organizationId, caller: inviter, roles })
      const email = body.email.toLowerCase()
      const invitee = await db.findOne<User & Row>({ model: 'user', where: { field: 'email', value: email } })
      if (invitee && (await findMember(db, organizationId, invitee.id))) {
        throw new AuthError(OrganizationErrors.USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION)
      }
      const team = body.teamId !== undefined ? await requireTeamOf(db, options, organizationId, body.teamId) : null
      const now = ctx.clock.now()

      const { invitation, created } = await db.transaction(async (tx) => {
        await lockOrganization(tx, organizationId)
        const pending = await tx.findMany<Invitation & Row>({
          model: 'invitation',
          where: [
            { field: 'organizationId', value: organizationId },
            { field: 'status', value: 'pending' },
            { field: 'expiresAt', operator: 'gt', value: now },
          ],
        })
        const existing = pending.find((candidate) => candidate.email === email)
        if (existing) return { invitation: existing, created: false }
        if (pending.length >= options.invitationLimit) throw new AuthError(OrganizationErrors.INVITATION_LIMIT_REACHED)
        const invitation = await tx.create<Invitation & Row>({
          model: 'invitation',
          data: {
            organizationId,
            email,
            role: joinRoles(roles),
            status: 'pending',
            teamId: team?.id ?? null,
            inviterId: session.user.id,
            expiresAt: new Date(now.getTime() + options.invitationExpiresIn * 1000),
          },
        })
        return { invitation, created: true }
      })

      const send = options.sendInvitationEmail
      if (send && (created || body.resend)) {
        try {
          await deliverMail(ctx, 'invitation', send, {
            id: invitation.id,
            email,
            role: invitation.role,
            organization,
            invitation,
            inviter: { member: inviter, user: session.user },
          })
        } catch (error) {
          // Leave nothing behind that the recipient never heard of.
          if (created) await db.delete({ model: 'invitation', where: { field: 'id', value: invitation.id } })
          throw error
        }
      }
      return invitation
    },
  })
}
