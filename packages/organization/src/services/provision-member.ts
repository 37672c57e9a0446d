/**
 * @module
 * Membership given by another plugin rather than by an invitation: the
 * single sign-on plugin adds the people its identity provider signs in to
 * the provider's organization (docs/sso.md#just-in-time-provisioning). The
 * same rules as add-member hold: the organization row is locked, the
 * membership limit is counted under that lock, and every role must be one
 * the organization defines (configured or, when enabled, run-time). The
 * caller's transaction is used throughout, so the membership commits or
 * rolls back with whatever else the sign-in writes; a member row already
 * there is answered as it is, its role untouched.
 */
import type { Row, Store } from '@gatehouse/core'
import { joinRoles, parseRoles } from '../access/has-permission.js'
import type { Member, ResolvedOptions } from '../options.js'
import { findMember, isSuspended } from './members.js'
import { rolesFor } from './roles.js'

export type ProvisionedMember =
  | { readonly ok: true; readonly member: Member; readonly created: boolean }
  | { readonly ok: false; readonly reason: 'organization-not-found' | 'unknown-role' | 'limit-reached' | 'member-suspended' }

/**
 * `userId`'s member row in `organizationId`, created with `role` when there
 * is none. Call it inside a transaction.
 *
 * @example
 * const result = await db.transaction((tx) => provisionMember(tx, options, { organizationId, userId, role: ['member'] }))
 * if (!result.ok && result.reason === 'limit-reached') ...
 */
export async function provisionMember(
  db: Store,
  options: ResolvedOptions,
  input: { readonly organizationId: string; readonly userId: string; readonly role: string | readonly string[] },
): Promise<ProvisionedMember> {
  const locked = await db.lock({ model: 'organization', where: { field: 'id', value: input.organizationId } })
  if (!locked) return { ok: false, reason: 'organization-not-found' }
  const existing = await findMember(db, input.organizationId, input.userId)
  // Suspended by the organization's directory (docs/scim.md#suspension): this sign-in must not let them in.
  if (existing && isSuspended(existing)) return { ok: false, reason: 'member-suspended' }
  if (existing) return { ok: true, member: existing, created: false }
  const roles = parseRoles(input.role)
  const available = await rolesFor(db, options, input.organizationId)
  if (roles.length === 0 || roles.some((role) => !Object.hasOwn(available, role))) return { ok: false, reason: 'unknown-role' }
  const count = await db.count({ model: 'member', where: { field: 'organizationId', value: input.organizationId } })
  if (count >= options.membershipLimit) return { ok: false, reason: 'limit-reached' }
  const member = await db.create<Member & Row>({
    model: 'member',
    data: { organizationId: input.organizationId, userId: input.userId, role: joinRoles(roles), teamId: null },
  })
  return { ok: true, member, created: true }
}
