/**
 * @module
 * GET /organization/list-members: the members of the named (or active)
 * organization with their users, oldest first, paged, and the total.
 * Members only.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedOptions } from '../../options.js'
import { requireMember } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { membersWithUsers } from '../../services/members.js'

const query = z.lazy(() =>
  z.object({
    organizationId: z.string().min(1).optional(),
    limit: z.coerce.number<number>().int().positive().max(1000).optional(),
    offset: z.coerce.number<number>().int().min(0).optional(),
  }),
)

export function listMembers(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/organization/list-members',
    query,
    use: [sessionMiddleware],
    handler: async ({ query, db, session }) => {
      const organizationId = targetOrganization(session, query.organizationId)
      await requireMember(db, options, organizationId, session.user.id)
      const [members, total] = await Promise.all([
        membersWithUsers(db, organizationId, {
          ...(query.limit !== undefined ? { limit: query.limit } : {}),
          ...(query.offset !== undefined ? { offset: query.offset } : {}),
        }),
        db.count({ model: 'member', where: { field: 'organizationId', value: organizationId } }),
      ])
      return { members, total }
    },
  })
}
