/**
 * @module
 * The one permission check. Every protected route asks `authorize` (through
 * `requirePermission`) and has-permission answers the client with it, so the
 * server and the client can never disagree about what a member may do
 * (docs/organization.md#roles-and-permissions). The answer is a value; routes turn
 * it into their own error message.
 */
import { AuthError, type ErrorDefinition, type Store } from '@gatehouse/core'
import type { Statements } from '../access/access-control.js'
import { hasPermission } from '../access/has-permission.js'
import { OrganizationErrors } from '../errors.js'
import type { Member, ResolvedOptions } from '../options.js'
import { findMember } from './members.js'
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
  if (!member) return { ok: false, reason: 'not-member' }
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
 * 403 "You are not allowed to grant this role" unless every role in `roles`
 * grants only what the caller's own roles grant. Without it, anyone allowed
 * to change roles could hand themselves a stronger one (an admin making
 * itself owner, or taking a run-time role with `organization: delete`).
 */
export async function requireGrantable(
  db: Store,
  options: ResolvedOptions,
  input: { readonly organizationId: string; readonly caller: Member; readonly roles: readonly string[] },
): Promise<void> {
  const available = await rolesFor(db, options, input.organizationId)
  for (const name of input.roles) {
    const role = Object.hasOwn(available, name) ? available[name] : undefined
    if (!role) throw new AuthError(OrganizationErrors.ROLE_NOT_FOUND)
    if (!hasPermission({ roles: available, role: input.caller.role, permissions: role.statements as Statements })) {
      throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE)
    }
  }
}
