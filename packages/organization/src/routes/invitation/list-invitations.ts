/**
 * @module
 * GET /organization/list-invitations?organizationId=: every invitation of
 * the named (or active) organization. Members only.
 */
import { defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import type { Invitation, ResolvedOptions } from '../../options.js'
import { requireMember } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'

export function listInvitations(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/organization/list-invitations',
    query: z.lazy(() => z.object({ organizationId: z.string().min(1).optional() })),
    use: [sessionMiddleware],
    handler: async ({ query, db, session }) => {
      const organizationId = targetOrganization(session, query.organizationId)
      await requireMember(db, options, organizationId, session.user.id)
      return db.findMany<Invitation & Row>({
        model: 'invitation',
        where: { field: 'organizationId', value: organizationId },
        sortBy: [
          { field: 'expiresAt', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
      })
    },
  })
}
