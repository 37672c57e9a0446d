/**
 * @module
 * Membership reads shared by the routes: one member row per (organization,
 * user), the members holding the creator role (the last owner can neither
 * leave nor be removed: docs/organization.md#behaviour), and the membership
 * limit (`membershipLimit`, docs/organization.md#options).
 */
import { AuthError, type Row, type Store, type User } from '@gatehouse/core'
import { parseRoles } from '../access/has-permission.js'
import { OrganizationErrors } from '../errors.js'
import type { Member, ResolvedOptions } from '../options.js'

export function findMember(db: Store, organizationId: string, userId: string): Promise<Member | null> {
  return db.findOne<Member & Row>({
    model: 'member',
    where: [
      { field: 'organizationId', value: organizationId },
      { field: 'userId', value: userId },
    ],
  })
}

/**
 * Whether a member row is suspended: its `suspendedAt` is set. The column is
 * not this plugin's own; a plugin that suspends members declares it on the
 * member table (the SCIM plugin, for a directory's `active: false`:
 * docs/scim.md#suspension). A suspended member keeps its row, role and teams
 * but counts as no member for every permission check, and sign-in through
 * the organization's single sign-on provider is refused (`provisionMember`).
 *
 * @example
 * isSuspended({ suspendedAt: new Date() }) // true
 */
export function isSuspended(member: { readonly [field: string]: unknown }): boolean {
  return member.suspendedAt !== undefined && member.suspendedAt !== null
}

/**
 * Whether `member` is the only one of its organization holding the creator
 * role. Call it after `lockOrganization`, in the transaction that removes or
 * demotes the member.
 */
export async function isLastOwner(db: Store, options: ResolvedOptions, member: Member): Promise<boolean> {
  if (!parseRoles(member.role).includes(options.creatorRole)) return false
  const candidates = await db.findMany<Member & Row>({
    model: 'member',
    where: [
      { field: 'organizationId', value: member.organizationId },
      { field: 'role', operator: 'contains', value: options.creatorRole },
    ],
  })
  const owners = candidates.filter((candidate) => parseRoles(candidate.role).includes(options.creatorRole))
  return owners.every((owner) => owner.id === member.id)
}

/**
 * 403 "Organization membership limit reached" when one more member would pass
 * the limit. Call it inside the transaction that adds the member, after
 * `lockOrganization`.
 */
export async function assertMembershipRoom(db: Store, options: ResolvedOptions, organizationId: string): Promise<void> {
  const count = await db.count({ model: 'member', where: { field: 'organizationId', value: organizationId } })
  if (count >= options.membershipLimit) throw new AuthError(OrganizationErrors.ORGANIZATION_MEMBERSHIP_LIMIT_REACHED)
}

/** Every role name a member may be given: the configured ones and, when enabled, the organization's own. */
export async function assertRolesExist(
  db: Store,
  options: ResolvedOptions,
  organizationId: string,
  roles: readonly string[],
): Promise<void> {
  for (const role of roles) {
    if (Object.hasOwn(options.roles, role)) continue
    if (options.dynamicRoles.enabled) {
      const stored = await db.findOne({
        model: 'organizationRole',
        where: [
          { field: 'organizationId', value: organizationId },
          { field: 'role', value: role },
        ],
      })
      if (stored) continue
    }
    throw new AuthError(OrganizationErrors.ROLE_NOT_FOUND)
  }
}

/** The public fields of a member's user, as member lists show them. */
export function memberUser(user: Row | null): { id: string; name: string; email: string; image: string | null } | null {
  if (!user) return null
  return {
    id: String(user.id),
    name: String(user.name),
    email: String(user.email),
    image: typeof user.image === 'string' ? user.image : null,
  }
}

/** Members of an organization with their users, oldest first. */
export async function membersWithUsers(db: Store, organizationId: string, page: { limit?: number; offset?: number } = {}) {
  const rows = await db.findMany<Member & Row & { user: (User & Row) | null }>({
    model: 'member',
    where: { field: 'organizationId', value: organizationId },
    sortBy: [
      { field: 'createdAt', direction: 'asc' },
      { field: 'id', direction: 'asc' },
    ],
    join: { user: { model: 'user', on: { field: 'userId', references: 'id' } } },
    ...(page.limit !== undefined ? { limit: page.limit } : {}),
    ...(page.offset !== undefined ? { offset: page.offset } : {}),
  })
  return rows.map(({ user, ...member }) => ({ ...(member as Member), user: memberUser(user) }))
}
