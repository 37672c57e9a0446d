/**
 * @module
 * POST /organization/set-active-team: makes one of the caller's teams the
 * session's active team (and its organization the active organization);
 * `teamId: null` clears the team. Only members of the team who are still
 * members of its organization may activate it: a team membership left behind
 * by a removal must not point the session at an organization the user is not
 * in (docs/organization.md#security).
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions } from '../../options.js'
import { setActive } from '../../services/active-organization.js'
import { requireMember } from '../../services/authorize.js'
import { requireTeam, requireTeams } from '../../services/teams.js'

export function setActiveTeam(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/set-active-team',
    body: z.lazy(() => z.object({ teamId: z.string().min(1).nullable() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      requireTeams(options)
      const { body, db, session } = ctx
      if (body.teamId === null) {
        // The organization stays what the session row has, not what a cached copy of it says.
        await setActive(ctx, options, { activeTeamId: null })
        return null
      }
      const team = await requireTeam(db, options, body.teamId, undefined)
      const membership = await db.findOne({
        model: 'teamMember',
        where: [
          { field: 'teamId', value: team.id },
          { field: 'userId', value: session.user.id },
        ],
      })
      if (!membership) throw new AuthError(OrganizationErrors.USER_IS_NOT_A_MEMBER_OF_THE_TEAM)
      await requireMember(db, options, team.organizationId, session.user.id)
      await setActive(ctx, options, { activeOrganizationId: team.organizationId, activeTeamId: team.id })
      return team
    },
  })
}
