/**
 * @module
 * POST /organization/remove-team: deletes a team and its team
 * memberships; members and invitations that pointed at it keep going
 * without a team, and sessions that had it active drop it. Needs
 * `team: delete`. The last team stays unless `allowRemovingAllTeams`
 * (docs/organization.md#behaviour). Answers `{ message: "Team removed successfully." }`.
 */
import { AuthError, defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions } from '../../options.js'
import { clearActiveTeam } from '../../services/active-organization.js'
import { requirePermission } from '../../services/authorize.js'
import { lockOrganization } from '../../services/organizations.js'
import { requireTeam } from '../../services/teams.js'

export function removeTeam(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/remove-team',
    body: z.lazy(() => z.object({ teamId: z.string().min(1), organizationId: z.string().min(1).optional() })),
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const { body, db, session } = ctx
      const team = await requireTeam(db, options, body.teamId, body.organizationId)
      const organizationId = team.organizationId
      await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { team: ['delete'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION,
      })
      await db.transaction(async (tx) => {
        await lockOrganization(tx, organizationId)
        if (!options.teams.allowRemovingAllTeams) {
          const teams = await tx.count({ model: 'team', where: { field: 'organizationId', value: organizationId } })
          if (teams <= 1) throw new AuthError(OrganizationErrors.UNABLE_TO_REMOVE_LAST_TEAM)
        }
        const ofTeam = [
          { field: 'teamId', value: team.id },
          { field: 'organizationId', value: organizationId },
        ]
        await tx.deleteMany({ model: 'teamMember', where: { field: 'teamId', value: team.id } })
        await tx.updateMany({ model: 'member', where: ofTeam, update: { teamId: null } })
        await tx.updateMany({ model: 'invitation', where: ofTeam, update: { teamId: null } })
        await tx.delete({ model: 'team', where: { field: 'id', value: team.id } })
      })
      await clearActiveTeam(ctx, { teamId: team.id })
      return { message: 'Team removed successfully.' as const }
    },
  })
}
