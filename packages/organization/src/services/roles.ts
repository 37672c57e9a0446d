/**
 * @module
 * The roles in force in one organization: the application's, plus, when
 * run-time roles are enabled, the ones stored for that organization. A
 * stored role never replaces a configured one of the same name (creating
 * one is refused), so a database write cannot redefine "owner".
 */
import { AuthError, CoreErrors, type Row, type Store } from '@gatehouse/core'
import { createRole, type Permissions, type Role, type Statements } from '../access/access-control.js'
import { OrganizationErrors } from '../errors.js'
import type { ResolvedOptions } from '../options.js'

export interface StoredRole {
  [field: string]: unknown
  id: string
  organizationId: string
  role: string
  permission: Permissions
  createdAt: Date
  updatedAt: Date | null
}

export async function rolesFor(db: Store, options: ResolvedOptions, organizationId: string): Promise<Readonly<Record<string, Role>>> {
  if (!options.dynamicRoles.enabled) return options.roles
  const stored = await db.findMany<StoredRole & Row>({
    model: 'organizationRole',
    where: { field: 'organizationId', value: organizationId },
  })
  const roles: Record<string, Role> = {}
  for (const row of stored) roles[row.role] = createRole(storedGrant(row.permission))
  return { ...roles, ...options.roles }
}

/** 404 while run-time roles are off: their routes answer like unknown routes. */
export function requireDynamicRoles(options: ResolvedOptions): void {
  if (!options.dynamicRoles.enabled) throw new AuthError(CoreErrors.NOT_FOUND)
}

/** 400 "Invalid permission" unless every resource and action is one of the statements'. */
export function checkPermissionShape(options: ResolvedOptions, permission: Statements): void {
  const statements = options.ac.statements
  for (const [resource, actions] of Object.entries(permission)) {
    const known = Object.hasOwn(statements, resource) ? statements[resource] : undefined
    if (!known || actions.some((action) => !known.includes(action))) throw new AuthError(OrganizationErrors.INVALID_PERMISSION)
  }
}

/** A stored role of the organization, or 400 "Role not found" (configured roles cannot be edited at run time). */
export async function requireStoredRole(db: Store, organizationId: string, role: string): Promise<StoredRole> {
  const stored = await db.findOne<StoredRole & Row>({
    model: 'organizationRole',
    where: [
      { field: 'organizationId', value: organizationId },
      { field: 'role', value: role },
    ],
  })
  if (!stored) throw new AuthError(OrganizationErrors.ROLE_NOT_FOUND)
  return stored
}

/**
 * The grant of a stored row, keeping only arrays of strings: a hand-edited
 * row holding `"update"` instead of `["update"]` must not grant by substring.
 */
function storedGrant(value: unknown): Statements {
  const grant: Record<string, string[]> = {}
  if (typeof value !== 'object' || value === null) return grant
  for (const [resource, actions] of Object.entries(value)) {
    if (Array.isArray(actions)) grant[resource] = actions.filter((action): action is string => typeof action === 'string')
  }
  return grant
}
