/**
 * @module
 * The second step of change-email for a verified address (SPEC §4 "Email"):
 * verify-email received a token with an `updateTo` claim, signed for the
 * user's current address and confirmed by its owner clicking the link. The
 * email moves to `updateTo`, becomes unverified, and a verification mail goes
 * to the new address.
 *
 * The update matches the old address as well as the id, so a token replayed
 * (or clicked twice at once) changes the email at most once: afterwards no
 * user holds the address the token names. The unique email index decides a
 * race with a sign-up taking the new address in the meantime. If the mail to
 * the new address fails, the old address comes back (no half-done state) and
 * the link, still valid, can simply be clicked again.
 */
import { normalizeEmail } from '../../accounts/email.js'
import { moveEmail } from '../../accounts/users.js'
import type { EndpointContext } from '../../endpoint/context.js'
import type { User } from '../../session/types.js'
import { canSendVerificationEmail, sendVerificationEmail } from '../../verification/send-verification-email.js'

/**
 * SPEC §8 redirect error codes for verify-email, plus `email_already_exists`
 * for an `updateTo` address taken since the change was requested (the spec's
 * list has no code for it; `invalid_token` would send the user looking for a
 * problem with their link).
 */
export type VerifyEmailError = 'token_expired' | 'invalid_token' | 'user_not_found' | 'email_already_exists'

export type EmailChangeOutcome = { readonly ok: true; readonly user: User } | { readonly ok: false; readonly error: VerifyEmailError }

/**
 * @example
 * const changed = await applyEmailChange(ctx, user, claims.updateTo, query.callbackURL)
 * if (!changed.ok) return ctx.redirect(appendQueryParam(callbackURL, 'error', changed.error))
 */
export async function applyEmailChange(
  ctx: EndpointContext,
  user: User,
  updateTo: string,
  callbackURL: string | undefined,
): Promise<EmailChangeOutcome> {
  const newEmail = normalizeEmail(updateTo)
  // change-email never signs such a token; a token naming no real change is not one of ours to honour.
  if (!newEmail || newEmail === user.email) return { ok: false, error: 'invalid_token' }

  const moved = await moveEmail(ctx.db, user.id, user.email, { email: newEmail, emailVerified: false })
  if (moved === 'taken') return { ok: false, error: 'email_already_exists' }
  if (!moved) return { ok: false, error: 'user_not_found' }

  if (canSendVerificationEmail(ctx)) {
    try {
      await sendVerificationEmail(ctx, moved, { callbackURL })
    } catch (error) {
      const restored = await moveEmail(ctx.db, user.id, newEmail, { email: user.email, emailVerified: user.emailVerified }).catch(
        () => null,
      )
      if (!restored || restored === 'taken') {
        ctx.logger.error('verify-email: could not restore the previous email', { userId: user.id })
      }
      throw error
    }
  }
  return { ok: true, user: moved }
}
