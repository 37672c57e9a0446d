/**
 * @module
 * GET /organization/list-roles: the run-time roles of the named (or active)
 * organization. Needs `ac: read`.
 */
import { defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions } from '../../options.js'
import { requirePermission } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { requireDynamicRoles, type StoredRole } from '../../services/roles.js'

export function listOrganizationRoles(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/organization/list-roles',
    query: z.lazy(() => z.object({ organizationId: z.string().min(1).optional() })),
    use: [sessionMiddleware],
    handler: async ({ query, db, session }) => {
      requireDynamicRoles(options)
      const organizationId = targetOrganization(session, query.organizationId)
      await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { ac: ['read'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_MANAGE_ROLES,
      })
      return db.findMany<StoredRole & Row>({
        model: 'organizationRole',
        where: { field: 'organizationId', value: organizationId },
        sortBy: [
          { field: 'createdAt', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
      })
    },
  })
}
