/**
 * @module
 * POST /send-verification-email {email, callbackURL?}
 * (docs/accounts.md#email-verification). Anonymous callers always get `{ status: true }`: a mail
 * goes out only when the address belongs to an unverified user, and the answer
 * is the same whether it does or not (prevents account enumeration). A
 * signed-in caller may only ask for their own, still unverified address, and
 * is told plainly when that is not the case: they learn nothing about others.
 */
import { z } from 'zod'
import { normalizeEmail } from '../../accounts/email.js'
import { findUserByEmail } from '../../accounts/users.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { resolveSession } from '../../session/resolve-session.js'
import {
  canSendVerificationEmail,
  sendVerificationEmail as mailVerificationLink,
} from '../../verification/send-verification-email.js'

/**
 * @example
 * await auth.api.sendVerificationEmail({ body: { email: 'ada@example.com', callbackURL: '/welcome' } })
 * // { status: true }
 */
export const sendVerificationEmail = defineEndpoint({
  method: 'POST',
  path: '/send-verification-email',
  body: z.lazy(() =>
    z.object({
      email: z.string(),
      callbackURL: z.string().optional(),
    }),
  ),
  handler: async (ctx) => {
    if (!canSendVerificationEmail(ctx)) throw new AuthError(CoreErrors.VERIFICATION_EMAIL_NOT_ENABLED)
    const email = normalizeEmail(ctx.body.email)
    if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)
    const callbackURL = ctx.body.callbackURL

    // Read from the store, not the cookie cache: a cached copy may still say "unverified".
    const session = await resolveSession(ctx, { disableCookieCache: true })
    if (session) {
      if (session.user.email !== email) throw new AuthError(CoreErrors.EMAIL_MISMATCH)
      if (session.user.emailVerified) throw new AuthError(CoreErrors.EMAIL_ALREADY_VERIFIED)
      await mailVerificationLink(ctx, session.user, { callbackURL })
      return { status: true }
    }

    const user = await findUserByEmail(ctx.db, email)
    // A failing mail callback still surfaces (500): the JWT holds no state to undo, and
    // hiding the failure would leave the user waiting for a mail that never comes.
    if (user && !user.emailVerified) await mailVerificationLink(ctx, user, { callbackURL })
    return { status: true }
  },
})
