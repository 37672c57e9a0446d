/**
 * @module
 * GET /organization/get-full-organization: the organization (by id, slug,
 * or else the active one) with its members, invitations and teams. Only
 * members may read it. With nothing named and nothing active the answer is
 * null, so a client can call it on every page load.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedOptions } from '../../options.js'
import { requireMember } from '../../services/authorize.js'
import { activeOrganizationId } from '../../services/caller.js'
import { fullOrganization, requireOrganization } from '../../services/organizations.js'

const query = z.lazy(() =>
  z.object({
    organizationId: z.string().min(1).optional(),
    organizationSlug: z.string().min(1).optional(),
    membersLimit: z.coerce.number<number>().int().positive().optional(),
  }),
)

export function getFullOrganization(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/organization/get-full-organization',
    query,
    use: [sessionMiddleware],
    handler: async ({ query, db, session }) => {
      const organizationId = query.organizationId ?? activeOrganizationId(session)
      if (query.organizationSlug === undefined && organizationId === null) return null
      const organization = await requireOrganization(
        db,
        query.organizationSlug !== undefined ? { slug: query.organizationSlug } : { id: organizationId as string },
      )
      await requireMember(db, options, organization.id, session.user.id)
      return fullOrganization(db, options, organization, query.membersLimit !== undefined ? { membersLimit: query.membersLimit } : {})
    },
  })
}
