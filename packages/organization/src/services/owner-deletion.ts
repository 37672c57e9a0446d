/**
 * @module
 * Deleting a user who owns organizations (docs/organization.md#deleting-an-owner).
 * The member rows would go by the foreign key's cascade, and an organization
 * whose only owner that was would be left with members and no owner: nobody
 * could then grant the creator role, manage owners or delete it, and the
 * last-owner rule of leave and remove-member would be bypassed.
 *
 * So the plugin hooks the delete of the user row itself (a `user.delete`
 * before-hook): core's delete-user, the admin plugin's remove-user and any
 * other path that deletes the row run it inside their transaction, and a
 * refusal rolls the whole deletion back. Per organization whose creator role
 * the user alone holds, under that organization's lock (taken in id order,
 * so two deletions cannot deadlock):
 * - nobody else is a member: the organization is deleted with the user, as
 *   nobody else could ever reach it;
 * - other members, `onLastOwnerDeleted: 'refuse'` (default): refused, with
 *   400 naming every such organization;
 * - `'transfer'`: the longest-standing member holding `admin` (else the
 *   longest-standing member) gains the creator role;
 * - `'delete-organization'`: the organization goes with its members,
 *   invitations, teams and run-time roles.
 * Sessions that had a deleted organization active stop having it.
 */
import {
  AuthError,
  refreshUserInStorage,
  type AuthContext,
  type DatabaseHookContext,
  type Row,
  type Session,
  type Store,
  type User,
} from '@gatehouse/core'
import { joinRoles, parseRoles } from '../access/has-permission.js'
import { OrganizationErrors } from '../errors.js'
import type { Member, Organization, ResolvedOptions } from '../options.js'
import { deleteOrganizationRows } from './organizations.js'

/** The role the `'transfer'` policy looks for first. */
const SUCCESSOR_ROLE = 'admin'

/**
 * Settles every organization `userId` alone owns, inside the transaction
 * that deletes the user (`tx`). Answers the ids of the organizations deleted.
 *
 * @example
 * await db.transaction(async (tx) => {
 *   await settleOwnedOrganizations(tx, options, user.id)
 *   await tx.delete({ model: 'user', where: { field: 'id', value: user.id } })
 * })
 */
export async function settleOwnedOrganizations(tx: Store, options: ResolvedOptions, userId: string): Promise<string[]> {
  const owner = options.creatorRole
  const memberships = await tx.findMany<Member & Row>({
    model: 'member',
    where: [
      { field: 'userId', value: userId },
      { field: 'role', operator: 'contains', value: owner },
    ],
  })
  const owned = memberships
    .filter((membership) => parseRoles(membership.role).includes(owner))
    .map((membership) => membership.organizationId)
    .sort()
  const refused: Organization[] = []
  const deleted: string[] = []
  for (const organizationId of owned) {
    const organization = await tx.lock<Organization & Row>({ model: 'organization', where: { field: 'id', value: organizationId } })
    if (!organization) continue
    const others = (
      await tx.findMany<Member & Row>({
        model: 'member',
        where: { field: 'organizationId', value: organizationId },
        sortBy: [
          { field: 'createdAt', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
      })
    ).filter((member) => member.userId !== userId)
    if (others.some((member) => parseRoles(member.role).includes(owner))) continue
    const successor = others.find((member) => parseRoles(member.role).includes(SUCCESSOR_ROLE)) ?? others[0]
    if (!successor || options.onLastOwnerDeleted === 'delete-organization') {
      await deleteOrganizationRows(tx, options, organizationId)
      deleted.push(organizationId)
    } else if (options.onLastOwnerDeleted === 'transfer') {
      // The creator role is added: the successor keeps whatever its own roles granted.
      await tx.update({
        model: 'member',
        where: { field: 'id', value: successor.id },
        update: { role: joinRoles([owner, ...parseRoles(successor.role)]) },
      })
    } else {
      refused.push(organization)
    }
  }
  if (refused.length > 0) {
    refused.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    const error = OrganizationErrors.USER_IS_THE_ONLY_OWNER_OF_ORGANIZATIONS
    throw new AuthError(error, {
      message: error.message.replace('{organizations}', refused.map((each) => `${each.name} (${each.slug})`).join(', ')),
      details: { organizations: refused.map(({ id, name, slug }) => ({ id, name, slug })) },
    })
  }
  return deleted
}

/**
 * The `user.delete.before` database hook. `authFor` answers the auth context
 * of the write (the request's, else the one the plugin was started with),
 * used after the commit to refresh the secondary-storage copies of sessions
 * that had a deleted organization active.
 */
export function ownerDeletionHook(options: ResolvedOptions, authFor: (ctx: DatabaseHookContext) => AuthContext | undefined) {
  return async (row: Row, ctx: DatabaseHookContext): Promise<void> => {
    const auth = authFor(ctx)
    const tx = ctx.db ?? auth?.db
    if (!tx) throw new Error('organization plugin used before createAuth initialised it')
    const userId = String(row.id)
    const deleted = await settleOwnedOrganizations(tx, options, userId)
    if (deleted.length === 0) return
    const sessions = await tx.findMany<Session & Row>({
      model: 'session',
      where: { field: 'activeOrganizationId', operator: 'in', value: deleted },
    })
    const cleared: Row = options.teams.enabled ? { activeOrganizationId: null, activeTeamId: null } : { activeOrganizationId: null }
    for (const session of sessions) {
      // updatedAt kept: losing the active organization is not a session refresh (docs/sessions.md#lifetimes-seconds).
      await tx.update({ model: 'session', where: { field: 'id', value: session.id }, update: { ...cleared, updatedAt: session.updatedAt } })
    }
    const users = new Set(sessions.map((session) => session.userId).filter((id) => id !== userId))
    if (!auth?.secondaryStorage || users.size === 0) return
    await tx.afterCommit(async () => {
      for (const id of users) {
        const user = await auth.db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: id } })
        if (user) await refreshUserInStorage(auth, user)
      }
    })
  }
}
