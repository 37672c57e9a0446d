/**
 * @module
 * POST /request-password-reset and its alias POST /forget-password
 * {email, redirectTo?} (docs/accounts.md#password-reset). Known
 * and unknown addresses get the same answer, `{ status: true, message }`
 * (prevents account enumeration). For a known user a reset token is stored
 * (24 letters and digits, `resetPasswordTokenExpiresIn` seconds,
 * default 3600; only its SHA-256 is kept) and the link
 * `{baseURL}/reset-password/{token}?callbackURL={redirectTo}` is mailed.
 *
 * Timing: an unknown address skips one insert and the mail callback. Keep
 * the callback fast (queue the mail rather than wait for SMTP) so the gap
 * stays the cost of that insert.
 *
 * A failing mail callback deletes the token before the 500: no reset link
 * exists that nobody received.
 */
import { z } from 'zod'
import { normalizeEmail } from '../../accounts/email.js'
import { deliverMail } from '../../accounts/mail.js'
import { findUserByEmail } from '../../accounts/users.js'
import type { EndpointContext } from '../../endpoint/context.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { createVerificationToken, deleteVerificationToken } from '../../verification/verification-token.js'

export const DEFAULT_RESET_TOKEN_SECONDS = 3600

/** The same words whether or not the address is known (prevents account enumeration). */
export const RESET_REQUESTED_MESSAGE = 'If this email exists in our system, check your email for the reset link'

const body = z.lazy(() =>
  z.object({
    email: z.string(),
    redirectTo: z.string().optional(),
  }),
)

async function requestReset(ctx: EndpointContext<z.output<typeof body>>) {
  const send = ctx.options.emailAndPassword?.sendResetPassword
  if (!send) throw new AuthError(CoreErrors.RESET_PASSWORD_DISABLED)
  const email = normalizeEmail(ctx.body.email)
  if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)
  const answer = { status: true, message: RESET_REQUESTED_MESSAGE }

  const user = await findUserByEmail(ctx.db, email)
  if (!user) return answer

  const expiresIn = ctx.options.emailAndPassword?.resetPasswordTokenExpiresIn ?? DEFAULT_RESET_TOKEN_SECONDS
  const { token, id } = await createVerificationToken(ctx.auth, 'reset-password', user.id, expiresIn)
  const url = `${ctx.auth.baseURL}/reset-password/${token}?callbackURL=${encodeURIComponent(ctx.body.redirectTo ?? '/')}`
  try {
    await deliverMail(ctx, 'reset-password', send, { user, url, token })
  } catch (error) {
    await deleteVerificationToken(ctx.auth, id)
    throw error
  }
  return answer
}

/**
 * @example
 * await auth.api.requestPasswordReset({ body: { email: 'ada@example.com', redirectTo: '/reset' } })
 * // { status: true, message: 'If this email exists in our system, check your email for the reset link' }
 */
export const requestPasswordReset = defineEndpoint({
  method: 'POST',
  path: '/request-password-reset',
  body,
  handler: requestReset,
})

/** The older name of {@link requestPasswordReset}, still routed for existing clients. */
export const forgetPassword = defineEndpoint({
  method: 'POST',
  path: '/forget-password',
  body,
  handler: requestReset,
})
