/**
 * @module
 * POST /change-email {newEmail, callbackURL?}
 * (docs/accounts.md#changing-the-email), only when `user.changeEmail.enabled`. The new address must
 * be valid, differ from the current one and belong to nobody ("Couldn't
 * update your email": this tells a signed-in user that the address is taken,
 * the wire contract in docs/accounts.md, and nothing to anonymous callers).
 *
 * Two flows:
 * - Current email unverified: nobody can confirm from the current address,
 *   so the email changes at once (still unverified) and, when verification
 *   mails are configured, one goes to the new address. If that mail fails
 *   the change is undone: the user is never left on an address no link can
 *   verify. This path needs a fresh session (403 "Session is not fresh"
 *   past `freshAge`): with an old stolen session, moving the address to the
 *   thief's mailbox and then resetting the password would take the account
 *   for good (docs/accounts.md#changing-the-email).
 * - Current email verified: the owner of the current address must approve.
 *   A confirmation goes to the current address with a verify-email link
 *   whose JWT, signed with the confirmation key, carries `{ email: current,
 *   updateTo: newEmail }`; the change applies when verify-email accepts it
 *   from a session of this user (and re-checks the address there).
 *
 * The unique email index decides a race with a concurrent sign-up or change
 * to the same address: the loser gets "Couldn't update your email".
 */
import { z } from 'zod'
import { normalizeEmail } from '../../accounts/email.js'
import { deliverMail } from '../../accounts/mail.js'
import { recordEmailMove } from '../../accounts/email-moves.js'
import { findUserByEmail, moveEmail } from '../../accounts/users.js'
import type { EndpointContext } from '../../endpoint/context.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { credentialSessionMiddleware } from '../../session/middleware.js'
import { isFresh } from '../../session/resolve-session.js'
import type { SessionWithUser, User } from '../../types/rows.js'
import { signEmailChangeToken } from '../../verification/email-token.js'
import {
  canSendVerificationEmail,
  DEFAULT_EMAIL_TOKEN_SECONDS,
  sendVerificationEmail,
} from '../../verification/send-verification-email.js'
import { publishUserChange } from './publish-user-change.js'

/**
 * @example
 * await auth.api.changeEmail({ body: { newEmail: 'ada@new.example', callbackURL: '/settings' }, headers: request.headers })
 */
export const changeEmail = defineEndpoint({
  method: 'POST',
  path: '/change-email',
  body: z.lazy(() =>
    z.object({
      newEmail: z.string(),
      callbackURL: z.string().optional(),
    }),
  ),
  use: [credentialSessionMiddleware],
  handler: async (ctx) => {
    const settings = ctx.options.user?.changeEmail
    if (!settings?.enabled) throw new AuthError(CoreErrors.CHANGE_EMAIL_DISABLED)
    const newEmail = normalizeEmail(ctx.body.newEmail)
    if (!newEmail) throw new AuthError(CoreErrors.INVALID_EMAIL)
    const { user } = ctx.session
    if (newEmail === user.email) throw new AuthError(CoreErrors.EMAIL_IS_THE_SAME)
    if (!user.emailVerified && !isFresh(ctx, ctx.session)) throw new AuthError(CoreErrors.SESSION_NOT_FRESH)
    if (await findUserByEmail(ctx.db, newEmail)) throw new AuthError(CoreErrors.COULDNT_UPDATE_EMAIL)

    if (!user.emailVerified) {
      await changeUnverifiedEmail(ctx, ctx.session, newEmail, ctx.body.callbackURL)
      return { status: true }
    }

    const send = settings.sendChangeEmailVerification
    if (!send) throw new AuthError(CoreErrors.VERIFICATION_EMAIL_NOT_ENABLED)
    const expiresIn = ctx.options.emailVerification?.expiresIn ?? DEFAULT_EMAIL_TOKEN_SECONDS
    const token = await signEmailChangeToken(ctx, { email: user.email, updateTo: newEmail }, expiresIn)
    const url = new URL(`${ctx.auth.baseURL}/verify-email`)
    url.searchParams.set('token', token)
    url.searchParams.set('callbackURL', ctx.body.callbackURL ?? '/')
    // A signed token holds no state, so a failed mail leaves nothing to undo.
    await deliverMail(ctx, 'change-email', send, { user, newEmail, url: url.toString(), token })
    return { status: true }
  },
})

async function changeUnverifiedEmail(
  ctx: EndpointContext,
  current: SessionWithUser,
  newEmail: string,
  callbackURL: string | undefined,
): Promise<void> {
  const { user } = current
  const moved = await moveEmail(ctx.db, user.id, user.email, { email: newEmail, emailVerified: false })
  const updated = moved === 'taken' ? null : moved
  if (!updated) throw new AuthError(CoreErrors.COULDNT_UPDATE_EMAIL)
  // The new address is the holder's claim until its mailbox proves it (accounts/email-moves.ts).
  await recordEmailMove(ctx.db, ctx.clock.now(), user.id, newEmail)

  if (canSendVerificationEmail(ctx)) {
    try {
      await sendVerificationEmail(ctx, updated, { callbackURL })
    } catch (error) {
      // No half-done change: put the old address back before reporting the failed mail.
      const restored = await moveEmail(ctx.db, user.id, newEmail, { email: user.email, emailVerified: false }).catch(() => null)
      if (!restored) ctx.logger.error('change-email: could not restore the previous email', { userId: user.id })
      throw error
    }
  }
  await publishUserChange(ctx, current, updated)
}
