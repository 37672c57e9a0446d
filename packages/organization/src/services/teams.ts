/**
 * @module
 * Team reads shared by the routes. A team is always looked up together with
 * the organization it must belong to, so an id from another organization is
 * "Team not found" rather than a way into it.
 */
import { AuthError, CoreErrors, type Row, type Store } from '@gatehouse/core'
import { OrganizationErrors } from '../errors.js'
import type { ResolvedOptions, Team } from '../options.js'

/** Team routes answer like unknown routes while teams are off. */
export function requireTeams(options: ResolvedOptions): void {
  if (!options.teams.enabled) throw new AuthError(CoreErrors.NOT_FOUND)
}

export async function findTeam(db: Store, teamId: string): Promise<Team | null> {
  return db.findOne<Team & Row>({ model: 'team', where: { field: 'id', value: teamId } })
}

/** The team when teams are on and it belongs to `organizationId`; else 400 "Team not found". */
export async function requireTeamOf(db: Store, options: ResolvedOptions, organizationId: string, teamId: string): Promise<Team> {
  if (!options.teams.enabled) throw new AuthError(OrganizationErrors.TEAM_NOT_FOUND)
  const team = await db.findOne<Team & Row>({
    model: 'team',
    where: [
      { field: 'id', value: teamId },
      { field: 'organizationId', value: organizationId },
    ],
  })
  if (!team) throw new AuthError(OrganizationErrors.TEAM_NOT_FOUND)
  return team
}

/** The team by id, checked against an organization id the caller named (if any): one id decides the organization. */
export async function requireTeam(db: Store, options: ResolvedOptions, teamId: string, organizationId: string | undefined): Promise<Team> {
  requireTeams(options)
  const team = await findTeam(db, teamId)
  if (!team || (organizationId !== undefined && team.organizationId !== organizationId)) throw new AuthError(OrganizationErrors.TEAM_NOT_FOUND)
  return team
}

/** 403 "Team member limit reached" when one more member would pass `maximumMembersPerTeam`; after `lockOrganization`. */
export async function assertTeamRoom(db: Store, options: ResolvedOptions, teamId: string): Promise<void> {
  const count = await db.count({ model: 'teamMember', where: { field: 'teamId', value: teamId } })
  if (count >= options.teams.maximumMembersPerTeam) throw new AuthError(OrganizationErrors.TEAM_MEMBER_LIMIT_REACHED)
}
