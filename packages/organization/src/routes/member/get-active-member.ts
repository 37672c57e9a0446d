/**
 * @module
 * GET /organization/get-active-member: the caller's member row in
 * the active organization, with the user. 400 "No active organization"
 * without one; the caller must be a member.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import type { ResolvedOptions } from '../../options.js'
import { requireMember } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'
import { memberUser } from '../../services/members.js'

export function getActiveMember(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/organization/get-active-member',
    use: [sessionMiddleware],
    handler: async ({ db, session }) => {
      const organizationId = targetOrganization(session, undefined)
      const member = await requireMember(db, options, organizationId, session.user.id)
      return { ...member, user: memberUser(session.user) }
    },
  })
}
