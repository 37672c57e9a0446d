/**
 * @module
 * The one permission question: do a member's roles, taken together, grant
 * every requested action? A member may hold several roles joined by commas
 * (`member.role`); the grant is their union, so `admin,auditor` may do
 * whatever either role may. Roles the application does not define grant
 * nothing rather than failing, so removing a role from the code never
 * escalates anyone.
 */
import { missingActions, type Role, type Statements } from './access-control.js'

/**
 * @example
 * parseRoles('admin, auditor') // ['admin', 'auditor']
 */
export function parseRoles(role: string | readonly string[]): string[] {
  const list = typeof role === 'string' ? role.split(',') : role
  return [...new Set(list.map((name) => name.trim()).filter((name) => name !== ''))]
}

/**
 * Roles as stored: comma-joined, each once.
 *
 * @example
 * joinRoles(['owner', 'admin', 'owner']) // 'owner,admin'
 */
export function joinRoles(role: string | readonly string[]): string {
  return parseRoles(role).join(',')
}

/**
 * @example
 * hasPermission({ roles: defaultRoles, role: 'member,admin', permissions: { member: ['delete'] } }) // true
 */
export function hasPermission(input: {
  readonly roles: Readonly<Record<string, Role>>
  readonly role: string | readonly string[]
  readonly permissions: Statements
}): boolean {
  const grants = parseRoles(input.role).flatMap((name) => {
    const role = Object.hasOwn(input.roles, name) ? input.roles[name] : undefined
    return role ? [role.statements as Statements] : []
  })
  return missingActions(grants, input.permissions).length === 0
}
