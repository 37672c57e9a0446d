/**
 * @module
 * add-member: server-side only (`auth.api.addMember`), never routed. The
 * application adds a user to an organization directly, without an
 * invitation, within the membership limit (`membershipLimit`). The (organization,
 * user) unique index makes a concurrent second add fail cleanly.
 */
import { AuthError, defineEndpoint, isUniqueViolation, optionalSessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { joinRoles, parseRoles } from '../../access/has-permission.js'
import { OrganizationErrors } from '../../errors.js'
import type { Member, ResolvedOptions } from '../../options.js'
import { activeOrganizationId } from '../../services/caller.js'
import { assertMembershipRoom, assertRolesExist, findMember } from '../../services/members.js'
import { lockOrganization, requireOrganization } from '../../services/organizations.js'
import { assertTeamRoom, requireTeamOf } from '../../services/teams.js'

const body = z.lazy(() =>
  z.object({
    userId: z.string().min(1),
    role: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    organizationId: z.string().min(1).optional(),
    teamId: z.string().min(1).optional(),
  }),
)

export function addMember(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/add-member',
    serverOnly: true,
    body,
    use: [optionalSessionMiddleware],
    handler: async ({ body, db, session }) => {
      const organizationId = body.organizationId ?? (session ? activeOrganizationId(session) : null)
      if (!organizationId) throw new AuthError(OrganizationErrors.ORGANIZATION_ID_REQUIRED)
      await requireOrganization(db, { id: organizationId })
      const user = await db.findOne({ model: 'user', where: { field: 'id', value: body.userId } })
      if (!user) throw new AuthError(OrganizationErrors.USER_NOT_FOUND)
      const roles = parseRoles(body.role)
      await assertRolesExist(db, options, organizationId, roles)
      if (await findMember(db, organizationId, body.userId)) {
        throw new AuthError(OrganizationErrors.USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION)
      }
      const team = body.teamId !== undefined ? await requireTeamOf(db, options, organizationId, body.teamId) : null
      try {
        return await db.transaction(async (tx) => {
          await lockOrganization(tx, organizationId)
          await assertMembershipRoom(tx, options, organizationId)
          if (team) await assertTeamRoom(tx, options, team.id)
          const member = await tx.create<Member & Row>({
            model: 'member',
            data: { organizationId, userId: body.userId, role: joinRoles(roles), teamId: team?.id ?? null },
          })
          if (team) await tx.create({ model: 'teamMember', data: { teamId: team.id, userId: body.userId } })
          return member
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new AuthError(OrganizationErrors.USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION)
        throw error
      }
    },
  })
}
