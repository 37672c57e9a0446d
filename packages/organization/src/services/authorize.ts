/**
 * @module
 * The one permission check. Every protected route asks `authorize` (through
 * `requirePermission`) and has-permission answers the client with it, so the
 * server and the client can never disagree about what a member may do
 * (docs/organization.md#roles-and-permissions). The answer is a value; routes turn
 * it into their own error message. A suspended member is answered as no
 * member at all (services/members.ts `isSuspended`).
 */
import { AuthError, type ErrorDefinition, type Store } from '@gatehouse/core'
import type { Role, Statements } from '../access/access-control.js'
import { hasPermission, parseRoles } from '../access/has-permission.js'
import { OrganizationErrors } from '../errors.js'
import type { Member, ResolvedOptions } from '../options.js'
import { findMember, isSuspended } from './members.js'
import { rolesFor } from './roles.js'

export type Authorization =
  | { readonly ok: true; readonly member: Member }
  | { readonly ok: false; readonly reason: 'not-member' }
  | { readonly ok: false; readonly reason: 'forbidden'; readonly member: Member }

/**
 * Whether `userId` is a member of `organizationId` whose roles grant every
 * action in `permissions`.
 *
 * @example
 * const result = await authorize(db, options, { organizationId, userId, permissions: { team: ['delete'] } })
 */
export async function authorize(
  db: Store,
  options: ResolvedOptions,
  input: { readonly organizationId: string; readonly userId: string; readonly permissions: Statements },
): Promise<Authorization> {
  const member = await findMember(db, input.organizationId, input.userId)
  // A suspended member (docs/scim.md#suspension) is refused everything a non-member is.
  if (!member || isSuspended(member)) return { ok: false, reason: 'not-member' }
  const roles = await rolesFor(db, options, input.organizationId)
  if (!hasPermission({ roles, role: member.role, permissions: input.permissions })) return { ok: false, reason: 'forbidden', member }
  return { ok: true, member }
}

/** The caller's member row when it grants `permissions`; otherwise 403 "You are not a member …" or `denied`. */
export async function requirePermission(
  db: Store,
  options: ResolvedOptions,
  input: { readonly organizationId: string; readonly userId: string; readonly permissions: Statements; readonly denied: ErrorDefinition },
): Promise<Member> {
  const result = await authorize(db, options, input)
  if (result.ok) return result.member
  if (result.reason === 'not-member') throw new AuthError(OrganizationErrors.YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION)
  throw new AuthError(input.denied)
}

/** The caller's member row: listing invitations or teams needs membership only (docs/organization.md#behaviour). */
export async function requireMember(db: Store, options: ResolvedOptions, organizationId: string, userId: string): Promise<Member> {
  const result = await authorize(db, options, { organizationId, userId, permissions: {} })
  // An empty request is granted to every member, so only "not a member" can fail here.
  if (result.ok || result.reason === 'forbidden') return result.member
  throw new AuthError(OrganizationErrors.YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION)
}

/**
 * Whether the caller's roles may hand out every role in `roles`: each must
 * grant only what the caller's own roles grant. Without it, anyone allowed to
 * change roles could hand themselves a stronger one (an admin making itself
 * owner, or taking a run-time role with `organization: delete`).
 */
export async function grantable(
  db: Store,
  options: ResolvedOptions,
  input: { readonly organizationId: string; readonly caller: Member; readonly roles: readonly string[] },
): Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: 'unknown-role' | 'forbidden' }> {
  const available = await rolesFor(db, options, input.organizationId)
  for (const name of input.roles) {
    const role = Object.hasOwn(available, name) ? available[name] : undefined
    if (!role) return { ok: false, reason: 'unknown-role' }
    if (!hasPermission({ roles: available, role: input.caller.role, permissions: role.statements as Statements })) {
      return { ok: false, reason: 'forbidden' }
    }
  }
  return { ok: true }
}

/** {@link grantable}, or 400 "Role not found" / 403 "You are not allowed to grant this role". */
export async function requireGrantable(
  db: Store,
  options: ResolvedOptions,
  input: { readonly organizationId: string; readonly caller: Member; readonly roles: readonly string[] },
): Promise<void> {
  const result = await grantable(db, options, input)
  if (result.ok) return
  throw new AuthError(result.reason === 'unknown-role' ? OrganizationErrors.ROLE_NOT_FOUND : OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE)
}

/**
 * What `role` (one name or several, comma-joined) grants taken together;
 * names the organization does not define grant nothing.
 *
 * @example
 * combinedGrant(defaultRoles, 'member,admin').organization // ['update']
 */
export function combinedGrant(roles: Readonly<Record<string, Role>>, role: string | readonly string[]): Statements {
  // A Map, then own properties: a resource named like an Object.prototype key stays an ordinary entry.
  const combined = new Map<string, Set<string>>()
  for (const name of parseRoles(role)) {
    const granted = Object.hasOwn(roles, name) ? roles[name] : undefined
    if (!granted) continue
    for (const [resource, actions] of Object.entries(granted.statements as Statements)) {
      const set = combined.get(resource) ?? new Set<string>()
      for (const action of actions) set.add(action)
      combined.set(resource, set)
    }
  }
  return Object.fromEntries([...combined].map(([resource, actions]) => [resource, [...actions]]))
}

/**
 * Whether `caller` may change or remove `target` (docs/organization.md#security).
 * A holder of the creator role may act on anyone, and only such a holder may
 * act on another; anyone else only on members whose roles, taken together,
 * grant nothing the caller's own do not. Without it a role holding just
 * `member: update` or `member: delete` could demote or remove the admins
 * above it.
 *
 * @example
 * outranks(options, roles, { role: 'admin' }, { role: 'member' }) // true
 */
export function outranks(
  options: ResolvedOptions,
  roles: Readonly<Record<string, Role>>,
  caller: Pick<Member, 'role'>,
  target: Pick<Member, 'role'>,
): boolean {
  const owner = options.creatorRole
  if (parseRoles(caller.role).includes(owner)) return true
  if (parseRoles(target.role).includes(owner)) return false
  return hasPermission({ roles, role: caller.role, permissions: combinedGrant(roles, target.role) })
}
