/**
 * @module
 * Roles from group membership (`groupRoles`, docs/scim.md#roles-from-groups).
 * With a mapping configured, the directory decides the roles of the members
 * its groups name: after any change of a group's members or name, each
 * member whose teams changed holds the roles of its mapped teams, together,
 * or `defaultRole` when none is mapped. A holder of the creator role is
 * never touched, and the mapping can never give it (checked when the plugin
 * starts), so a directory cannot make or unmake an owner.
 */
import { joinRoles } from '@gatehouse/organization'
import type { Row, Store } from '@gatehouse/core'
import type { ResolvedScimOptions } from '../options.js'
import { isOwner, type MemberRules } from './organization.js'
import type { MemberRow } from './user-resource.js'

/**
 * @example
 * await syncRoles(tx, options, rules, organizationId, [userId])
 */
export async function syncRoles(
  tx: Store,
  options: Pick<ResolvedScimOptions, 'groupRoles' | 'defaultRole'>,
  rules: MemberRules,
  organizationId: string,
  userIds: Iterable<string>,
): Promise<void> {
  if (options.groupRoles.size === 0) return
  const ids = [...new Set(userIds)]
  if (ids.length === 0) return
  const teams = await tx.findMany<Row & { id: string; name: string }>({ model: 'team', where: { field: 'organizationId', value: organizationId } })
  const mappedTeams = new Map(teams.flatMap((team) => (options.groupRoles.has(team.name) ? [[team.id, options.groupRoles.get(team.name) ?? []] as const] : [])))
  const memberships =
    mappedTeams.size === 0
      ? []
      : await tx.findMany<Row & { teamId: string; userId: string }>({
          model: 'teamMember',
          where: [
            { field: 'teamId', operator: 'in', value: [...mappedTeams.keys()] },
            { field: 'userId', operator: 'in', value: ids },
          ],
        })
  const members = await tx.findMany<MemberRow>({
    model: 'member',
    where: [
      { field: 'organizationId', value: organizationId },
      { field: 'userId', operator: 'in', value: ids },
    ],
  })
  for (const member of members) {
    if (isOwner(rules, member)) continue
    const roles = memberships.filter((row) => row.userId === member.userId).flatMap((row) => mappedTeams.get(row.teamId) ?? [])
    const role = joinRoles(roles.length > 0 ? roles : [options.defaultRole])
    if (role !== member.role) await tx.update({ model: 'member', where: { field: 'id', value: member.id }, update: { role } })
  }
}
