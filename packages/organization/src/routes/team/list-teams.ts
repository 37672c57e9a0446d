/**
 * @module
 * GET /organization/list-teams?organizationId=: the teams of the named (or
 * active) organization, oldest first. Members only.
 */
import { defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedOptions, Team } from '../../options.js'
import { requireMember } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { requireTeams } from '../../services/teams.js'

export function listTeams(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/organization/list-teams',
    query: z.lazy(() => z.object({ organizationId: z.string().min(1).optional() })),
    use: [sessionMiddleware],
    handler: async ({ query, db, session }) => {
      requireTeams(options)
      const organizationId = targetOrganization(session, query.organizationId)
      await requireMember(db, options, organizationId, session.user.id)
      return db.findMany<Team & Row>({
        model: 'team',
        where: { field: 'organizationId', value: organizationId },
        sortBy: [
          { field: 'createdAt', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
      })
    },
  })
}
