/**
 * @module
 * Builds and mails the verify-email link (query `token` and `callbackURL`:
 * docs/accounts.md#email-verification), used by sign-up, sign-in when verification is required,
 * send-verification-email and change-email.
 */
import { deliverMail } from '../accounts/mail.js'
import type { EndpointContext } from '../endpoint/context.js'
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import type { User } from '../types/rows.js'
import { bindLinkToBrowser } from '../session/link-binding.js'
import { signEmailToken } from './email-token.js'

export const DEFAULT_EMAIL_TOKEN_SECONDS = 3600

export function canSendVerificationEmail(ctx: Pick<EndpointContext, 'options'>): boolean {
  return typeof ctx.options.emailVerification?.sendVerificationEmail === 'function'
}

export async function sendVerificationEmail(
  ctx: EndpointContext,
  user: User,
  options: { callbackURL?: string | undefined } = {},
): Promise<void> {
  const send = ctx.options.emailVerification?.sendVerificationEmail
  if (!send) throw new AuthError(CoreErrors.VERIFICATION_EMAIL_NOT_ENABLED)
  const expiresIn = ctx.options.emailVerification?.expiresIn ?? DEFAULT_EMAIL_TOKEN_SECONDS
  const token = await signEmailToken(ctx, { email: user.email }, expiresIn)
  const url = new URL(`${ctx.auth.baseURL}/verify-email`)
  url.searchParams.set('token', token)
  url.searchParams.set('callbackURL', options.callbackURL ?? '/')
  await deliverMail(ctx, 'verify-email', send, { user, url: url.toString(), token })
  // The browser that asked may open the link and be signed in at once; any other gets "Continue as …" (docs/security.md#login-csrf).
  bindLinkToBrowser(ctx, user.email, expiresIn)
}
