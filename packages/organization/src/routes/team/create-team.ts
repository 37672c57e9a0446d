/**
 * @module
 * POST /organization/create-team: a new team in the named (or active)
 * organization. Needs `team: create`; at most `maximumTeams` per
 * organization.
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions, Team } from '../../options.js'
import { requirePermission } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { lockOrganization } from '../../services/organizations.js'
import { requireTeams } from '../../services/teams.js'

export function createTeam(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/create-team',
    body: z.lazy(() => z.object({ name: z.string().min(1), organizationId: z.string().min(1).optional() })),
    use: [sessionMiddleware],
    handler: async ({ body, db, session }) => {
      requireTeams(options)
      const organizationId = targetOrganization(session, body.organizationId)
      await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { team: ['create'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION,
      })
      return db.transaction(async (tx) => {
        await lockOrganization(tx, organizationId)
        const count = await tx.count({ model: 'team', where: { field: 'organizationId', value: organizationId } })
        if (count >= options.teams.maximumTeams) throw new AuthError(OrganizationErrors.YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS)
        return tx.create<Team & Row>({ model: 'team', data: { name: body.name, organizationId } })
      })
    },
  })
}
