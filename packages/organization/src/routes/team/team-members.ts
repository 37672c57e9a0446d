/**
 * @module
 * Team membership: POST /organization/add-team-member and
 * /organization/remove-team-member (both need `team: update` in the team's
 * organization), and GET /organization/list-team-members (members of the
 * organization only). Only members of the organization can join its teams,
 * within `maximumMembersPerTeam`; the (team, user) unique index refuses a
 * second membership. Membership is checked again under the organization's
 * lock, in the transaction that adds the team member: a removal racing the
 * addition (removeMembership deletes the team memberships under the same
 * lock) either comes first and is seen, or comes after and deletes the new
 * row too (docs/organization.md#security).
 */
import { AuthError, defineEndpoint, isUniqueViolation, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { ResolvedOptions, Team } from '../../options.js'
import { clearActiveTeam } from '../../services/active-organization.js'
import { requireMember, requirePermission } from '../../services/authorize.js'
import type { SessionContext } from '../../services/caller.js'
import { findMember } from '../../services/members.js'
import { lockOrganization } from '../../services/organizations.js'
import { assertTeamRoom, requireTeam } from '../../services/teams.js'

const body = z.lazy(() => z.object({ teamId: z.string().min(1), userId: z.string().min(1) }))

async function authorizeTeamChange(ctx: SessionContext, options: ResolvedOptions, teamId: string): Promise<Team> {
  const team = await requireTeam(ctx.db, options, teamId, undefined)
  await requirePermission(ctx.db, options, {
    organizationId: team.organizationId,
    userId: ctx.session.user.id,
    permissions: { team: ['update'] },
    denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM,
  })
  return team
}

export function addTeamMember(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/add-team-member',
    body,
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const team = await authorizeTeamChange(ctx, options, ctx.body.teamId)
      if (!(await findMember(ctx.db, team.organizationId, ctx.body.userId))) {
        throw new AuthError(OrganizationErrors.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION)
      }
      try {
        return await ctx.db.transaction(async (tx) => {
          await lockOrganization(tx, team.organizationId)
          if (!(await findMember(tx, team.organizationId, ctx.body.userId))) {
            throw new AuthError(OrganizationErrors.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION)
          }
          await assertTeamRoom(tx, options, team.id)
          return tx.create({ model: 'teamMember', data: { teamId: team.id, userId: ctx.body.userId } })
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new AuthError(OrganizationErrors.USER_IS_ALREADY_A_MEMBER_OF_THIS_TEAM)
        throw error
      }
    },
  })
}

export function removeTeamMember(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/remove-team-member',
    body,
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const team = await authorizeTeamChange(ctx, options, ctx.body.teamId)
      const removed = await ctx.db.consume({
        model: 'teamMember',
        where: [
          { field: 'teamId', value: team.id },
          { field: 'userId', value: ctx.body.userId },
        ],
      })
      if (!removed) throw new AuthError(OrganizationErrors.USER_IS_NOT_A_MEMBER_OF_THE_TEAM)
      const member = await findMember(ctx.db, team.organizationId, ctx.body.userId)
      if (member?.teamId === team.id) await ctx.db.update({ model: 'member', where: { field: 'id', value: member.id }, update: { teamId: null } })
      await clearActiveTeam(ctx, { teamId: team.id, userId: ctx.body.userId })
      return removed
    },
  })
}

export function listTeamMembers(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/organization/list-team-members',
    query: z.lazy(() => z.object({ teamId: z.string().min(1) })),
    use: [sessionMiddleware],
    handler: async ({ query, db, session }) => {
      const team = await requireTeam(db, options, query.teamId, undefined)
      await requireMember(db, options, team.organizationId, session.user.id)
      return db.findMany({
        model: 'teamMember',
        where: { field: 'teamId', value: team.id },
        sortBy: [
          { field: 'createdAt', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
      })
    },
  })
}
