/**
 * @module
 * POST /organization/create-role: a role defined at run time for one
 * organization, stored in the database (`dynamicAccessControl`). Needs
 * `ac: create` (owner and admin by default). The role may grant only
 * actions the statements list and the caller holds, its name must not be a
 * configured role or an existing one (the (organization, role) unique index
 * decides a race), and each organization has at most
 * `maximumRolesPerOrganization`.
 */
import { AuthError, defineEndpoint, isUniqueViolation, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { hasPermission } from '../../access/has-permission.js'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions } from '../../options.js'
import { requirePermission } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { lockOrganization } from '../../services/organizations.js'
import { checkPermissionShape, requireDynamicRoles, rolesFor, type StoredRole } from '../../services/roles.js'

export const roleName = z.lazy(() => z.string().min(1).max(64).regex(/^[^,\s]+$/, 'a role name has no commas or spaces'))
export const permissionSchema = z.lazy(() => z.record(z.string(), z.array(z.string())))

export function createOrganizationRole(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/create-role',
    body: z.lazy(() => z.object({ role: roleName, permission: permissionSchema, organizationId: z.string().min(1).optional() })),
    use: [sessionMiddleware],
    handler: async ({ body, db, session }) => {
      requireDynamicRoles(options)
      const organizationId = targetOrganization(session, body.organizationId)
      const caller = await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { ac: ['create'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_MANAGE_ROLES,
      })
      checkPermissionShape(options, body.permission)
      const roles = await rolesFor(db, options, organizationId)
      if (Object.hasOwn(roles, body.role)) throw new AuthError(OrganizationErrors.ROLE_ALREADY_EXISTS)
      if (!hasPermission({ roles, role: caller.role, permissions: body.permission })) {
        throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE)
      }
      try {
        return await db.transaction(async (tx) => {
          await lockOrganization(tx, organizationId)
          const count = await tx.count({ model: 'organizationRole', where: { field: 'organizationId', value: organizationId } })
          if (count >= options.dynamicRoles.maximumRolesPerOrganization) {
            throw new AuthError(OrganizationErrors.YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ROLES)
          }
          return tx.create<StoredRole & Row>({
            model: 'organizationRole',
            data: { organizationId, role: body.role, permission: body.permission },
          })
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new AuthError(OrganizationErrors.ROLE_ALREADY_EXISTS)
        throw error
      }
    },
  })
}
