/**
 * @module
 * The second step of change-email for a verified address (docs/accounts.md#changing-the-email):
 * verify-email received a change-confirmation token (`{ email, updateTo }`,
 * signed with its own key), mailed to the user's current address. The email
 * moves to `updateTo`, becomes unverified, and a verification mail goes to
 * the new address.
 *
 * Only a signed-in session of the user holding `email` applies it: a mail
 * scanner prefetching the link, or whoever a forwarded mail reaches, changes
 * nothing (no session: `unauthorized`; another user's session:
 * `invalid_token`), and the link stays usable by its owner. The mail to the
 * new address is a plain verification token: it proves that mailbox and may be
 * opened anywhere.
 *
 * The update matches the old address as well as the id, so a token replayed
 * (or clicked twice at once) changes the email at most once: afterwards no
 * user holds the address the token names. The unique email index decides a
 * race with a sign-up taking the new address in the meantime. If the mail to
 * the new address fails, the old address comes back (no half-done state) and
 * the link, still valid, can simply be clicked again.
 */
import { normalizeEmail } from '../../accounts/email.js'
import { recordEmailMove } from '../../accounts/email-moves.js'
import { findUserByEmail, moveEmail } from '../../accounts/users.js'
import type { EndpointContext } from '../../endpoint/context.js'
import { resolveSession } from '../../session/resolve-session.js'
import type { User } from '../../types/rows.js'
import type { ChangeConfirmationClaims } from '../../verification/email-token.js'
import { canSendVerificationEmail, sendVerificationEmail } from '../../verification/send-verification-email.js'

/**
 * The redirect error codes of verify-email (docs/accounts.md#email-verification), plus `email_already_exists`
 * for an `updateTo` address taken since the change was requested (the
 * standard codes have none for it; `invalid_token` would send the user looking for a
 * problem with their link). `unauthorized`: a confirmation followed without a session.
 */
export type VerifyEmailError = 'token_expired' | 'invalid_token' | 'user_not_found' | 'email_already_exists' | 'unauthorized'

export type EmailChangeOutcome = { readonly ok: true; readonly user: User } | { readonly ok: false; readonly error: VerifyEmailError }

/**
 * @example
 * const changed = await applyEmailChange(ctx, checked.claims, query.callbackURL)
 * if (!changed.ok) return ctx.redirect(appendQueryParam(callbackURL, 'error', changed.error))
 */
export async function applyEmailChange(
  ctx: EndpointContext,
  claims: ChangeConfirmationClaims,
  callbackURL: string | undefined,
): Promise<EmailChangeOutcome> {
  // Read from the store, as every route that changes the account does: a revoked session must not confirm.
  const caller = await resolveSession(ctx, { disableCookieCache: true })
  if (!caller) return { ok: false, error: 'unauthorized' }
  const email = normalizeEmail(claims.email)
  const user = email ? await findUserByEmail(ctx.db, email) : null
  if (!user) return { ok: false, error: 'user_not_found' }
  if (user.id !== caller.user.id) return { ok: false, error: 'invalid_token' }

  const newEmail = normalizeEmail(claims.updateTo)
  // change-email never signs such a token; a token naming no real change is not one of ours to honour.
  if (!newEmail || newEmail === user.email) return { ok: false, error: 'invalid_token' }

  const moved = await moveEmail(ctx.db, user.id, user.email, { email: newEmail, emailVerified: false })
  if (moved === 'taken') return { ok: false, error: 'email_already_exists' }
  if (!moved) return { ok: false, error: 'user_not_found' }
  // The new address is the holder's claim until its mailbox proves it (accounts/email-moves.ts).
  await recordEmailMove(ctx.db, ctx.clock.now(), user.id, newEmail)

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
