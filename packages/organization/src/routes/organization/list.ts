/**
 * @module
 * GET /organization/list: the organizations the caller is a
 * member of, oldest membership first, read in one query (member joined
 * with its organization). Suspended memberships are left out.
 */
import { defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import type { Member, Organization } from '../../options.js'
import { isSuspended } from '../../services/members.js'

export function listOrganizations() {
  return defineEndpoint({
    method: 'GET',
    path: '/organization/list',
    use: [sessionMiddleware],
    handler: async ({ db, session }) => {
      const rows = await db.findMany<Member & Row & { organization: (Organization & Row) | null }>({
        model: 'member',
        where: { field: 'userId', value: session.user.id },
        sortBy: [
          { field: 'createdAt', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
        join: { organization: { model: 'organization', on: { field: 'organizationId', references: 'id' } } },
      })
      // A suspended membership (docs/scim.md#suspension) is no way into the organization: not listed either.
      return rows.flatMap((row): Organization[] => (row.organization && !isSuspended(row) ? [row.organization] : []))
    },
  })
}
