/**
 * @module
 * The one permission check of the admin plugin (docs/admin.md#roles-and-permissions).
 * Every route asks `requireAdminPermission`, and has-permission answers the
 * client with `userHasPermission`, so the server and the client never
 * disagree. The routes read the caller's session from the database
 * (`sensitiveSessionMiddleware`) and the caller's role here, never from the
 * cookie cache, so a revoked or demoted admin loses their power at once.
 * Users listed in `adminUserIds` hold every permission, so nobody else
 * outranks them (docs/admin.md#security).
 */
import { AuthError, type ErrorDefinition, type SessionWithUser, type Store, type User } from '@gatehouse/core'
import { hasPermission, parseRoles, type Statements } from '@gatehouse/organization/access'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'

/** The admin plugin's fields of a user row. */
export interface AdminUser extends User {
  role: string | null
  banned: boolean | null
  banReason: string | null
  banExpires: Date | null
}

/** The user's role list; a user without one has the default role. */
export function rolesOf(options: ResolvedAdminOptions, user: Pick<AdminUser, 'role'>): string[] {
  return parseRoles(user.role ?? options.defaultRole)
}

/**
 * Whether `user` (or a bare role) is granted every action in `permissions`.
 *
 * @example
 * userHasPermission(options, { id, role: 'admin' }, { user: ['ban'] }) // true
 */
export function userHasPermission(
  options: ResolvedAdminOptions,
  subject: { readonly id?: string; readonly role: string | readonly string[] | null },
  permissions: Statements,
): boolean {
  if (subject.id !== undefined && options.adminUserIds.has(subject.id)) return true
  return hasPermission({ roles: options.roles, role: subject.role ?? options.defaultRole, permissions })
}

/** Whether the user is an admin: listed in `adminUserIds` or holding one of `adminRoles`. */
export function isAdmin(options: ResolvedAdminOptions, user: Pick<AdminUser, 'id' | 'role'>): boolean {
  if (options.adminUserIds.has(user.id)) return true
  return rolesOf(options, user).some((role) => options.adminRoles.includes(role))
}

/**
 * What the user's roles grant, as statements. Not what a user in
 * `adminUserIds` holds: they hold every permission, which no list of
 * statements spells out (the application's may extend the admin ones), so
 * `requireOutranks` asks about them first.
 */
export function grantsOf(options: ResolvedAdminOptions, user: Pick<AdminUser, 'role'>): Statements {
  // A Map: resource names are the application's, and `constructor` must not find Object's.
  const grants = new Map<string, Set<string>>()
  for (const name of rolesOf(options, user)) {
    const role = Object.hasOwn(options.roles, name) ? options.roles[name] : undefined
    for (const [resource, actions] of Object.entries((role?.statements ?? {}) as Statements)) {
      const held = grants.get(resource) ?? new Set<string>()
      for (const action of actions) held.add(action)
      grants.set(resource, held)
    }
  }
  return Object.fromEntries([...grants].map(([resource, actions]) => [resource, [...actions]]))
}

export async function findAdminUser(db: Store, id: string): Promise<AdminUser | null> {
  return db.findOne<AdminUser>({ model: 'user', where: { field: 'id', value: id } })
}

/**
 * The caller's fresh user row when their roles grant `permissions`;
 * otherwise 403 with `denied`. A session whose user is gone is 401.
 *
 * @example
 * const caller = await requireAdminPermission(db, options, session, { user: ['ban'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_BAN_USERS)
 */
export async function requireAdminPermission(
  db: Store,
  options: ResolvedAdminOptions,
  session: SessionWithUser,
  permissions: Statements,
  denied: ErrorDefinition,
): Promise<AdminUser> {
  const caller = await findAdminUser(db, session.user.id)
  if (!caller) throw new AuthError(AdminErrors.USER_NOT_FOUND)
  if (!userHasPermission(options, caller, permissions)) throw new AuthError(denied)
  return caller
}

/**
 * Whether the caller holds every permission the target holds: a user in
 * `adminUserIds` holds all of them, so only another such user outranks
 * them; anyone else is compared by their roles' grants.
 *
 * @example
 * outranks(resolveAdminOptions({ adminUserIds: ['root'] }), { id: 'a', role: 'admin' }, { id: 'root', role: 'user' }) // false
 */
export function outranks(options: ResolvedAdminOptions, caller: Pick<AdminUser, 'id' | 'role'>, target: Pick<AdminUser, 'id' | 'role'>): boolean {
  if (caller.id === target.id || options.adminUserIds.has(caller.id)) return true
  if (options.adminUserIds.has(target.id)) return false
  return userHasPermission(options, caller, grantsOf(options, target))
}

/**
 * 403 unless the target holds no permission the caller lacks: a support
 * role allowed to ban users cannot ban the admins above it, and nobody can
 * reset the password of someone stronger (a user in `adminUserIds` above
 * all) and sign in as them (docs/admin.md#security). Every route that acts
 * on, or reads the sessions of, a user asks it.
 */
export function requireOutranks(options: ResolvedAdminOptions, caller: AdminUser, target: AdminUser): void {
  if (!outranks(options, caller, target)) throw new AuthError(AdminErrors.YOU_ARE_NOT_ALLOWED_TO_MANAGE_THIS_USER)
}

/**
 * 400 "Role not found" for a role the application does not define, and 403
 * unless each role grants no more than the caller holds: nobody can raise a
 * user, themselves included, above their own permissions.
 */
export function requireGrantable(options: ResolvedAdminOptions, caller: AdminUser, roles: readonly string[]): void {
  for (const name of roles) {
    const role = Object.hasOwn(options.roles, name) ? options.roles[name] : undefined
    if (!role) throw new AuthError(AdminErrors.ROLE_NOT_FOUND)
    if (!userHasPermission(options, caller, role.statements as Statements)) throw new AuthError(AdminErrors.YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE)
  }
}

/** The target user, or 404. */
export async function requireUser(db: Store, userId: string): Promise<AdminUser> {
  const user = await findAdminUser(db, userId)
  if (!user) throw new AuthError(AdminErrors.USER_NOT_FOUND)
  return user
}
