/**
 * @module
 * POST /organization/delete (docs/organization.md#behaviour):
 * needs `organization: delete` (owner by default). Members, invitations,
 * teams and run-time roles go with the organization in one transaction;
 * then the organization stops being active on every session that had it.
 * Answers the deleted organization.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions } from '../../options.js'
import { clearActive } from '../../services/active-organization.js'
import { requirePermission } from '../../services/authorize.js'
import { deleteOrganizationRows, requireOrganization } from '../../services/organizations.js'

export function deleteOrganization(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/delete',
    body: z.lazy(() => z.object({ organizationId: z.string().min(1) })),
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const { body, db, session } = ctx
      const organization = await requireOrganization(db, { id: body.organizationId })
      await requirePermission(db, options, {
        organizationId: organization.id,
        userId: session.user.id,
        permissions: { organization: ['delete'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION,
      })
      await db.transaction((tx) => deleteOrganizationRows(tx, options, organization.id))
      await clearActive(ctx, options, { organizationId: organization.id })
      return organization
    },
  })
}
