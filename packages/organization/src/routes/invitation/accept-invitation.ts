/**
 * @module
 * POST /organization/accept-invitation (docs/organization.md#behaviour):
 * the recipient becomes a member with the invitation's role (and team), and
 * that organization becomes the session's active one. Answers
 * `{ invitation, member }`.
 *
 * An invitation speaks for its inviter, at the time it is accepted: the
 * inviter must still be a member, still hold `invitation: create` and still
 * be allowed to grant the invited roles (docs/organization.md#security).
 * Otherwise an invitation to admin sent by an admin demoted since would
 * still make an admin for as long as it is valid.
 *
 * Concurrency: the status moves pending → accepted by a compare-and-set
 * inside the transaction that inserts the member, so of any number of
 * concurrent accepts exactly one gets the row; the others find it no longer
 * pending and roll back. The (organization, user) unique index backs this up
 * should the user already be a member.
 */
import { AuthError, defineEndpoint, isUniqueViolation, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { Invitation, Member, ResolvedOptions, Team } from '../../options.js'
import { setActive } from '../../services/active-organization.js'
import { requireInviterStillGrants, requireOpenInvitationFor, stillPending } from '../../services/invitations.js'
import { assertMembershipRoom, findMember } from '../../services/members.js'
import { lockOrganization } from '../../services/organizations.js'
import { assertTeamRoom, findTeam } from '../../services/teams.js'

export function acceptInvitation(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/accept-invitation',
    body: z.lazy(() => z.object({ invitationId: z.string().min(1) })),
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const { db, session } = ctx
      const invitation = await requireOpenInvitationFor(ctx, options, ctx.body.invitationId)
      const organizationId = invitation.organizationId
      if (await findMember(db, organizationId, session.user.id)) {
        throw new AuthError(OrganizationErrors.USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION)
      }
      const team: Team | null =
        options.teams.enabled && invitation.teamId ? await findTeam(db, invitation.teamId) : null
      // A team deleted since the invitation was sent is skipped; the membership still stands.
      const teamId = team && team.organizationId === organizationId ? team.id : null

      let accepted: { invitation: Invitation; member: Member }
      try {
        accepted = await db.transaction(async (tx) => {
          await lockOrganization(tx, organizationId)
          await requireInviterStillGrants(tx, options, invitation)
          await assertMembershipRoom(tx, options, organizationId)
          if (teamId) await assertTeamRoom(tx, options, teamId)
          const updated = await tx.update<Invitation & Row>({ model: 'invitation', where: stillPending(invitation.id), update: { status: 'accepted' } })
          if (!updated) throw new AuthError(OrganizationErrors.FAILED_TO_RETRIEVE_INVITATION)
          const member = await tx.create<Member & Row>({
            model: 'member',
            data: { organizationId, userId: session.user.id, role: invitation.role, teamId },
          })
          if (teamId) await tx.create({ model: 'teamMember', data: { teamId, userId: session.user.id } })
          return { invitation: updated, member }
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new AuthError(OrganizationErrors.USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION)
        throw error
      }
      await setActive(ctx, options, { activeOrganizationId: organizationId, activeTeamId: teamId })
      return accepted
    },
  })
}
