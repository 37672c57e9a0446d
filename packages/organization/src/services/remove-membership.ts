/**
 * @module
 * The one way a member leaves an organization, shared by remove-member and
 * leave: the last holder of the creator role stays (docs/organization.md#behaviour), the member
 * row and the user's team memberships in that organization go in one
 * transaction, and the organization stops being active on the user's
 * sessions.
 *
 * Every rule is decided on rows read under the organization's lock, never on
 * the row the route found before it: between the two, a concurrent request
 * may have promoted the member to owner and the previous owner may have left,
 * and deciding on the stale row would remove the last owner
 * (docs/organization.md#security).
 */
import { AuthError, type ErrorDefinition, type Row, type Store } from '@gatehouse/core'
import { OrganizationErrors } from '../errors.js'
import type { Member, ResolvedOptions, Team } from '../options.js'
import { clearActive } from './active-organization.js'
import type { OrgContext, SessionContext } from './caller.js'
import { isLastOwner } from './members.js'
import { lockOrganization } from './organizations.js'

export interface RemovalRules {
  /** The error when the member is the organization's last owner. */
  readonly lastOwner: ErrorDefinition
  /** The error when a concurrent request removed the member first. Default 400 "Member not found". */
  readonly gone?: ErrorDefinition
  /** The route's own rules on the member row as it is under the lock (who may remove whom); throws to refuse. */
  readonly check?: (tx: Store, current: Member) => Promise<void>
}

/**
 * Removes `member` and answers its row as it was when removed.
 *
 * @example
 * await removeMembership(ctx, options, member, { lastOwner: OrganizationErrors.YOU_CANNOT_REMOVE_THE_LAST_OWNER })
 */
export async function removeMembership(
  ctx: OrgContext & { readonly session?: SessionContext['session'] },
  options: ResolvedOptions,
  member: Member,
  rules: RemovalRules,
): Promise<Member> {
  const removed = await ctx.db.transaction(async (tx) => {
    // Under the organization's lock: two owners removing each other at once cannot both succeed.
    await lockOrganization(tx, member.organizationId)
    const current = await tx.findOne<Member & Row>({ model: 'member', where: { field: 'id', value: member.id } })
    if (!current) throw new AuthError(rules.gone ?? OrganizationErrors.MEMBER_NOT_FOUND)
    await rules.check?.(tx, current)
    if (await isLastOwner(tx, options, current)) throw new AuthError(rules.lastOwner)
    if (options.teams.enabled) {
      const teams = await tx.findMany<Team & Row>({ model: 'team', where: { field: 'organizationId', value: current.organizationId } })
      if (teams.length > 0) {
        await tx.deleteMany({
          model: 'teamMember',
          where: [
            { field: 'userId', value: current.userId },
            { field: 'teamId', operator: 'in', value: teams.map((team) => team.id) },
          ],
        })
      }
    }
    await tx.delete({ model: 'member', where: { field: 'id', value: current.id } })
    return current
  })
  await clearActive(ctx, options, { organizationId: removed.organizationId, userId: removed.userId })
  return removed
}
