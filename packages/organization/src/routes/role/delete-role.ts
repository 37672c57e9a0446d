/**
 * @module
 * POST /organization/delete-role: deletes a run-time role that no member
 * holds (a member keeping a deleted role's name would silently lose its
 * grant, or regain it if the name were reused). Needs `ac: delete`. The
 * holder check and the delete run in one transaction after locking the
 * organization, as the routes that hand out roles do: a role being assigned
 * at that moment is either seen as held, or the assignment waits and finds
 * the role gone (docs/organization.md#security).
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { parseRoles } from '../../access/has-permission.js'
import { OrganizationErrors } from '../../errors.js'
import type { Member, ResolvedOptions } from '../../options.js'
import { requirePermission } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { lockOrganization } from '../../services/organizations.js'
import { requireDynamicRoles, requireStoredRole } from '../../services/roles.js'
import { roleName } from './create-role.js'

export function deleteOrganizationRole(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/delete-role',
    body: z.lazy(() => z.object({ roleName, organizationId: z.string().min(1).optional() })),
    use: [sessionMiddleware],
    handler: async ({ body, db, session }) => {
      requireDynamicRoles(options)
      const organizationId = targetOrganization(session, body.organizationId)
      await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { ac: ['delete'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_MANAGE_ROLES,
      })
      await db.transaction(async (tx) => {
        await lockOrganization(tx, organizationId)
        const stored = await requireStoredRole(tx, organizationId, body.roleName)
        const holders = await tx.findMany<Member & Row>({
          model: 'member',
          where: [
            { field: 'organizationId', value: organizationId },
            { field: 'role', operator: 'contains', value: stored.role },
          ],
        })
        if (holders.some((member) => parseRoles(member.role).includes(stored.role))) {
          throw new AuthError(OrganizationErrors.ROLE_IS_ASSIGNED_TO_MEMBERS)
        }
        await tx.delete({ model: 'organizationRole', where: { field: 'id', value: stored.id } })
      })
      return { success: true as const }
    },
  })
}
