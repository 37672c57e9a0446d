/**
 * @module
 * The one way a member leaves an organization, shared by remove-member and
 * leave: the last holder of the creator role stays (docs/organization.md#behaviour), the member
 * row and the user's team memberships in that organization go in one
 * transaction, and the organization stops being active on the user's
 * sessions.
 */
import { AuthError, type ErrorDefinition, type Row } from '@gatehouse/core'
import type { Member, ResolvedOptions, Team } from '../options.js'
import { clearActive } from './active-organization.js'
import type { OrgContext, SessionContext } from './caller.js'
import { isLastOwner } from './members.js'
import { lockOrganization } from './organizations.js'

export async function removeMembership(
  ctx: OrgContext & { readonly session?: SessionContext['session'] },
  options: ResolvedOptions,
  member: Member,
  lastOwner: ErrorDefinition,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    // Under the organization's lock: two owners removing each other at once cannot both succeed.
    await lockOrganization(tx, member.organizationId)
    if (await isLastOwner(tx, options, member)) throw new AuthError(lastOwner)
    if (options.teams.enabled) {
      const teams = await tx.findMany<Team & Row>({ model: 'team', where: { field: 'organizationId', value: member.organizationId } })
      if (teams.length > 0) {
        await tx.deleteMany({
          model: 'teamMember',
          where: [
            { field: 'userId', value: member.userId },
            { field: 'teamId', operator: 'in', value: teams.map((team) => team.id) },
          ],
        })
      }
    }
    await tx.delete({ model: 'member', where: { field: 'id', value: member.id } })
  })
  await clearActive(ctx, options, { organizationId: member.organizationId, userId: member.userId })
}
