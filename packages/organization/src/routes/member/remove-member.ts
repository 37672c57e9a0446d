/**
 * @module
 * POST /organization/remove-member: `memberIdOrEmail` is an email when it
 * contains "@", else a member id (docs/organization.md#behaviour). Needs `member: delete`
 * and to outrank the member (docs/organization.md#security): only a holder of
 * the creator role may remove another holder, anyone else only members whose
 * roles grant nothing the caller's lack; the last owner cannot be removed.
 * These rules are decided under the organization's lock. Answers `{ member }`.
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { OrganizationErrors } from '../../errors.js'
import type { Member, ResolvedOptions } from '../../options.js'
import { outranks, requirePermission } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { findMember } from '../../services/members.js'
import { removeMembership } from '../../services/remove-membership.js'
import { rolesFor } from '../../services/roles.js'

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
      // Checked before the member is looked up, so a caller who may not remove anyone learns nothing of who is a member.
      await requirePermission(db, options, {
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
      const removed = await removeMembership(ctx, options, member, {
        lastOwner: OrganizationErrors.YOU_CANNOT_REMOVE_THE_LAST_OWNER,
        // Both rows as they are under the lock: a role changed since the reads above decides.
        check: async (tx, current) => {
          const caller = await requirePermission(tx, options, {
            organizationId,
            userId: session.user.id,
            permissions: { member: ['delete'] },
            denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER,
          })
          if (!outranks(options, await rolesFor(tx, options, organizationId), caller, current)) {
            throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER)
          }
        },
      })
      return { member: removed }
    },
  })
}
