/**
 * @module
 * GET /organization/list-user-invitations: the pending, unexpired
 * invitations addressed to the caller's email, each with the organization's
 * name and slug. Like get-invitation, it needs a verified email unless that
 * requirement is turned off.
 */
import { AuthError, defineEndpoint, sessionMiddleware, type Row } from '@gatehouse/core'
import { OrganizationErrors } from '../../errors.js'
import type { Invitation, Organization, ResolvedOptions } from '../../options.js'

export function listUserInvitations(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/organization/list-user-invitations',
    use: [sessionMiddleware],
    handler: async ({ db, session, clock }) => {
      if (options.requireEmailVerificationOnInvitation && !session.user.emailVerified) {
        throw new AuthError(OrganizationErrors.EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION)
      }
      const rows = await db.findMany<Invitation & Row & { organization: (Organization & Row) | null }>({
        model: 'invitation',
        where: [
          { field: 'email', value: session.user.email.toLowerCase() },
          { field: 'status', value: 'pending' },
          { field: 'expiresAt', operator: 'gt', value: clock.now() },
        ],
        join: { organization: { model: 'organization', on: { field: 'organizationId', references: 'id' } } },
      })
      return rows.map(({ organization, ...invitation }) => ({
        ...(invitation as Invitation),
        organizationName: organization?.name ?? null,
        organizationSlug: organization?.slug ?? null,
      }))
    },
  })
}
