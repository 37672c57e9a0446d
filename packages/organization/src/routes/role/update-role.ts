/**
 * @module
 * POST /organization/update-role: replaces what a run-time role grants.
 * Needs `ac: update`; the new grant is checked like a new role's (known
 * actions only, none the caller lacks), and so is the grant it replaces,
 * unless the caller holds the creator role. Configured roles are not editable.
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { hasPermission } from '../../access/has-permission.js'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions } from '../../options.js'
import { outranks, requirePermission } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { checkPermissionShape, requireDynamicRoles, requireStoredRole, rolesFor, type StoredRole } from '../../services/roles.js'
import { permissionSchema, roleName } from './create-role.js'

const body = z.lazy(() =>
  z.object({
    roleName,
    data: z.object({ permission: permissionSchema }),
    organizationId: z.string().min(1).optional(),
  }),
)

export function updateOrganizationRole(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/update-role',
    body,
    use: [sessionMiddleware],
    handler: async ({ body, db, session }) => {
      requireDynamicRoles(options)
      const organizationId = targetOrganization(session, body.organizationId)
      const caller = await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { ac: ['update'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_MANAGE_ROLES,
      })
      const stored = await requireStoredRole(db, organizationId, body.roleName)
      checkPermissionShape(options, body.data.permission)
      const roles = await rolesFor(db, options, organizationId)
      // The role as it stands must be within the caller's own grants too: otherwise emptying a stronger role would
      // demote every member holding it, which the outranks rule forbids doing one by one (docs/organization.md#security).
      if (!outranks(options, roles, caller, { role: stored.role })) {
        throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE)
      }
      if (!hasPermission({ roles, role: caller.role, permissions: body.data.permission })) {
        throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE)
      }
      const updated = await db.update<StoredRole & Row>({
        model: 'organizationRole',
        where: [
          { field: 'id', value: stored.id },
          { field: 'organizationId', value: organizationId },
        ],
        update: { permission: body.data.permission },
      })
      if (!updated) throw new AuthError(OrganizationErrors.ROLE_NOT_FOUND)
      return updated
    },
  })
}
