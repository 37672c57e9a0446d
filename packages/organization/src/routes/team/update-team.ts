/**
 * @module
 * POST /organization/update-team: renames a team; the update accepts the
 * name only (docs/organization.md#behaviour). Needs `team: update` in the team's own
 * organization.
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions, Team } from '../../options.js'
import { requirePermission } from '../../services/authorize.js'
import { requireTeam } from '../../services/teams.js'

const body = z.lazy(() =>
  z.object({
    teamId: z.string().min(1),
    data: z.object({ name: z.string().min(1).optional() }),
    organizationId: z.string().min(1).optional(),
  }),
)

export function updateTeam(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/update-team',
    body,
    use: [sessionMiddleware],
    handler: async ({ body, db, session }) => {
      const team = await requireTeam(db, options, body.teamId, body.organizationId)
      await requirePermission(db, options, {
        organizationId: team.organizationId,
        userId: session.user.id,
        permissions: { team: ['update'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM,
      })
      if (body.data.name === undefined) return team
      const updated = await db.update<Team & Row>({
        model: 'team',
        where: [
          { field: 'id', value: team.id },
          { field: 'organizationId', value: team.organizationId },
        ],
        update: { name: body.data.name },
      })
      if (!updated) throw new AuthError(OrganizationErrors.TEAM_NOT_FOUND)
      return updated
    },
  })
}
