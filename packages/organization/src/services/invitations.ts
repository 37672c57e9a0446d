/**
 * @module
 * The checks invitation recipients pass (docs/organization.md#behaviour): the
 * invitation exists, is pending and unexpired; its email is the caller's,
 * compared case-insensitively; and, unless turned off, the caller's email
 * is verified — otherwise anyone who signs up with an address they do not
 * own could join an organization that invited it.
 */
import { AuthError, type Row } from '@gatehouse/core'
import { OrganizationErrors } from '../errors.js'
import type { Invitation, ResolvedOptions } from '../options.js'
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
