/**
 * @module
 * `@gatehouse/admin/access`: the admin plugin's permission statements and
 * its two default roles (docs/admin.md#roles-and-permissions), built with the
 * organization package's access-control builder so one role model covers
 * both plugins. `admin` may create, list, set-role, ban, impersonate, delete
 * and set-password on users, and list, revoke and delete sessions; `user`
 * has none.
 */
import { createAccessControl } from '@gatehouse/organization/access'

export { createAccessControl, hasPermission, joinRoles, parseRoles } from '@gatehouse/organization/access'
export type { AccessControl, Permissions, Role, Statements } from '@gatehouse/organization/access'

/**
 * @example
 * const ac = createAccessControl({ ...adminStatements, report: ['read'] })
 * const support = ac.newRole({ user: ['list'], session: ['list', 'revoke'] })
 */
export const adminStatements = {
  user: ['create', 'list', 'set-role', 'ban', 'impersonate', 'delete', 'set-password'],
  session: ['list', 'revoke', 'delete'],
} as const

export const adminAc = createAccessControl(adminStatements)

export const adminRole = adminAc.newRole({
  user: ['create', 'list', 'set-role', 'ban', 'impersonate', 'delete', 'set-password'],
  session: ['list', 'revoke', 'delete'],
})

export const userRole = adminAc.newRole({})

/**
 * admin and user: what an application gets unless it passes `roles`.
 *
 * @example
 * hasPermission({ roles: defaultAdminRoles, role: 'user', permissions: { user: ['list'] } }) // false
 */
export const defaultAdminRoles = { admin: adminRole, user: userRole } as const
