/**
 * @module
 * POST /organization/remove-member: `memberIdOrEmail` is an email when it
 * contains "@", else a member id (docs/organization.md#behaviour). Needs `member: delete`;
 * only a holder of the creator role may remove another holder, and the last
 * one cannot be removed. Answers `{ member }`.
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { parseRoles } from '../../access/has-permission.js'
import { OrganizationErrors } from '../../errors.js'
import type { Member, ResolvedOptions } from '../../options.js'
import { requirePermission } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { findMember } from '../../services/members.js'
import { removeMembership } from '../../services/remove-membership.js'

const body = z.lazy(() => z.object({ memberIdOrEmail: z.string().min(1), organizationId: z.string().min(1).optional() }))

export function removeMember(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/remove-member',
    body,
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const { body, db, session } = ctx
      const organizationId = targetOrganization(session, body.organizationId)
      const caller = await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { member: ['delete'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER,
      })
      let member: Member | null = null
      if (body.memberIdOrEmail.includes('@')) {
        const user = await db.findOne<User & Row>({
          model: 'user',
          where: { field: 'email', value: body.memberIdOrEmail.toLowerCase() },
        })
        member = user ? await findMember(db, organizationId, user.id) : null
      } else {
        member = await db.findOne<Member & Row>({
          model: 'member',
          where: [
            { field: 'id', value: body.memberIdOrEmail },
            { field: 'organizationId', value: organizationId },
          ],
        })
      }
      if (!member) throw new AuthError(OrganizationErrors.MEMBER_NOT_FOUND)
      const owner = options.creatorRole
      if (parseRoles(member.role).includes(owner) && !parseRoles(caller.role).includes(owner)) {
        throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER)
      }
      await removeMembership(ctx, options, member, OrganizationErrors.YOU_CANNOT_REMOVE_THE_LAST_OWNER)
      return { member }
    },
  })
}
