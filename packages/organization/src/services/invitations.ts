/**
 * @module
 * The checks invitation recipients pass (docs/organization.md#behaviour): the
 * invitation exists, is pending and unexpired; its email is the caller's,
 * compared case-insensitively; and, unless turned off, the caller's email
 * is verified — otherwise anyone who signs up with an address they do not
 * own could join an organization that invited it. At acceptance the inviter
 * must still be able to send that invitation (docs/organization.md#security).
 */
import { AuthError, type Row, type Store } from '@gatehouse/core'
import { parseRoles } from '../access/has-permission.js'
import { OrganizationErrors } from '../errors.js'
import type { Invitation, ResolvedOptions } from '../options.js'
import { authorize, grantable } from './authorize.js'
import type { SessionContext } from './caller.js'

export async function requireOpenInvitationFor(ctx: SessionContext, options: ResolvedOptions, invitationId: string): Promise<Invitation> {
  const invitation = await ctx.db.findOne<Invitation & Row>({ model: 'invitation', where: { field: 'id', value: invitationId } })
  if (!invitation || !isOpen(invitation, ctx.clock.now())) throw new AuthError(OrganizationErrors.INVITATION_NOT_FOUND)
  if (invitation.email.toLowerCase() !== ctx.session.user.email.toLowerCase()) {
    throw new AuthError(OrganizationErrors.YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION)
  }
  if (options.requireEmailVerificationOnInvitation && !ctx.session.user.emailVerified) {
    throw new AuthError(OrganizationErrors.EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION)
  }
  return invitation
}

/** Pending and not yet expired: only such an invitation can be seen, accepted or rejected. */
export function isOpen(invitation: Invitation, now: Date): boolean {
  return invitation.status === 'pending' && invitation.expiresAt.getTime() > now.getTime()
}

/** Where-clause of one invitation while it is still pending: the compare-and-set that decides concurrent answers. */
export function stillPending(invitationId: string) {
  return [
    { field: 'id', value: invitationId },
    { field: 'status', value: 'pending' },
  ]
}

/**
 * An invitation speaks for its inviter as they are now, not as they were
 * when they sent it: 400 "Inviter is no longer a member of the organization"
 * once they left, 403 "Inviter is no longer allowed to invite with this
 * role" once they lost `invitation: create` or the right to grant one of the
 * invited roles, 400 "Role not found" for a run-time role deleted since. Call
 * it inside the accepting transaction, after `lockOrganization`, so a
 * concurrent demotion either comes first and refuses, or waits.
 */
export async function requireInviterStillGrants(db: Store, options: ResolvedOptions, invitation: Invitation): Promise<void> {
  const inviter = await authorize(db, options, {
    organizationId: invitation.organizationId,
    userId: invitation.inviterId,
    permissions: { invitation: ['create'] },
  })
  if (!inviter.ok && inviter.reason === 'not-member') {
    throw new AuthError(OrganizationErrors.INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION)
  }
  if (!inviter.ok) throw new AuthError(OrganizationErrors.INVITER_IS_NO_LONGER_ALLOWED_TO_INVITE_WITH_THIS_ROLE)
  const result = await grantable(db, options, {
    organizationId: invitation.organizationId,
    caller: inviter.member,
    roles: parseRoles(invitation.role),
  })
  if (result.ok) return
  throw new AuthError(
    result.reason === 'unknown-role' ? OrganizationErrors.ROLE_NOT_FOUND : OrganizationErrors.INVITER_IS_NO_LONGER_ALLOWED_TO_INVITE_WITH_THIS_ROLE,
  )
}
