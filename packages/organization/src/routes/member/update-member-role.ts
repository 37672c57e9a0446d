/**
 * @module
 * POST /organization/update-member-role: sets a member's roles (one name,
 * or several, stored comma-joined). Needs `member: update`. The caller
 * may only grant roles that grant no more than their own, and only a holder
 * of the creator role may change a holder's roles, so an admin can neither
 * make itself owner nor demote one; anyone else may change only members it
 * outranks (their roles grant nothing the caller's lack); the last owner
 * cannot be demoted (docs/organization.md#behaviour, #security). All of it is
 * decided under the organization's lock.
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { joinRoles, parseRoles } from '../../access/has-permission.js'
import { OrganizationErrors } from '../../errors.js'
import type { Member, ResolvedOptions } from '../../options.js'
import { outranks, requireGrantable, requirePermission } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { isLastOwner } from '../../services/members.js'
import { lockOrganization } from '../../services/organizations.js'
import { rolesFor } from '../../services/roles.js'

const body = z.lazy(() =>
  z.object({
    memberId: z.string().min(1),
    role: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    organizationId: z.string().min(1).optional(),
  }),
)

export function updateMemberRole(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/update-member-role',
    body,
    use: [sessionMiddleware],
    handler: async ({ body, db, session }) => {
      const organizationId = targetOrganization(session, body.organizationId)
      // Checked before the member is looked up, so a caller who may not change roles learns nothing of who is a member.
      await requirePermission(db, options, {
        organizationId,
        userId: session.user.id,
        permissions: { member: ['update'] },
        denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER,
      })
      const roles = parseRoles(body.role)
      const owner = options.creatorRole
      return db.transaction(async (tx) => {
        await lockOrganization(tx, organizationId)
        // Every rule on the rows as they are under the lock: a concurrent change of either member's roles decides
        // who outranks whom and whether the member is the last owner (docs/organization.md#security).
        const caller = await requirePermission(tx, options, {
          organizationId,
          userId: session.user.id,
          permissions: { member: ['update'] },
          denied: OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER,
        })
        const member = await tx.findOne<Member & Row>({
          model: 'member',
          where: [
            { field: 'id', value: body.memberId },
            { field: 'organizationId', value: organizationId },
          ],
        })
        if (!member) throw new AuthError(OrganizationErrors.MEMBER_NOT_FOUND)
        await requireGrantable(tx, options, { organizationId, caller, roles })
        if (parseRoles(member.role).includes(owner) && !parseRoles(caller.role).includes(owner)) {
          throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE)
        }
        if (!outranks(options, await rolesFor(tx, options, organizationId), caller, member)) {
          throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER)
        }
        if (!roles.includes(owner) && (await isLastOwner(tx, options, member))) {
          throw new AuthError(OrganizationErrors.YOU_CANNOT_REMOVE_THE_LAST_OWNER)
        }
        const updated = await tx.update<Member & Row>({ model: 'member', where: { field: 'id', value: member.id }, update: { role: joinRoles(roles) } })
        if (!updated) throw new AuthError(OrganizationErrors.MEMBER_NOT_FOUND)
        return updated
      })
    },
  })
}
