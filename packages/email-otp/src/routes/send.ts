/**
 * @module
 * The routes that mail a code (docs/email-otp.md#routes):
 * POST /email-otp/send-verification-otp `{ email, type }` for `sign-in`,
 * `email-verification` and `forget-password`, and the two names the leading
 * library has for the last, POST /email-otp/request-password-reset and
 * POST /forget-password/email-otp. Each answers `{ success: true }` whether
 * or not the address has an account (codes.ts says how the mail is sent).
 * `change-email` codes come from request-email-change only: they name both
 * addresses.
 */
import { AuthError, CoreErrors, defineEndpoint, issueCode, normalizeEmail, type AfterAnswer, type User } from '@gatehouse/core'
import { z } from 'zod'
import { codeTarget, sendCode } from '../codes.js'
import { EmailOTPErrors } from '../errors.js'
import { OTP_TYPES, type OTPType, type ResolvedEmailOTPOptions } from '../options.js'

const hasAccount = (user: User | null) => user !== null
const needsVerification = (user: User | null) => user !== null && !user.emailVerified

async function send(ctx: Parameters<typeof sendCode>[0], options: ResolvedEmailOTPOptions, later: AfterAnswer, rawEmail: string, type: OTPType) {
  const email = normalizeEmail(rawEmail)
  if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)
  if (type === 'change-email') throw new AuthError(EmailOTPErrors.INVALID_OTP_TYPE)
  const deliverTo = type === 'sign-in' ? (options.disableSignUp ? hasAccount : null) : type === 'email-verification' ? needsVerification : hasAccount
  await sendCode(ctx, options, later, { type, email, target: codeTarget(type, email), deliverTo })
  return { success: true }
}

export function sendVerificationOTP(options: ResolvedEmailOTPOptions, later: AfterAnswer) {
  return defineEndpoint({
    method: 'POST',
    path: '/email-otp/send-verification-otp',
    body: z.lazy(() => z.object({ email: z.string(), type: z.enum(OTP_TYPES) })),
    handler: (ctx) => send(ctx, options, later, ctx.body.email, ctx.body.type),
  })
}

const emailOnly = z.lazy(() => z.object({ email: z.string() }))

export function requestPasswordResetEmailOTP(options: ResolvedEmailOTPOptions, later: AfterAnswer) {
  return defineEndpoint({
    method: 'POST',
    path: '/email-otp/request-password-reset',
    body: emailOnly,
    handler: (ctx) => send(ctx, options, later, ctx.body.email, 'forget-password'),
  })
}

/** The leading library's older name for request-password-reset, kept so its clients work. */
export function forgetPasswordEmailOTP(options: ResolvedEmailOTPOptions, later: AfterAnswer) {
  return defineEndpoint({
    method: 'POST',
    path: '/forget-password/email-otp',
    body: emailOnly,
    handler: (ctx) => send(ctx, options, later, ctx.body.email, 'forget-password'),
  })
}

/** Server only: a code for `email` and `type`, returned to the caller instead of mailed (tests, an app's own channel). */
export function createVerificationOTP(options: ResolvedEmailOTPOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/email-otp/create-verification-otp',
    serverOnly: true,
    body: z.lazy(() => z.object({ email: z.string(), type: z.enum(OTP_TYPES) })),
    handler: async (ctx) => {
      const email = normalizeEmail(ctx.body.email)
      if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)
      return issueCode(ctx.auth, codeTarget(ctx.body.type, email), { digits: options.digits, expiresIn: options.expiresIn })
    },
  })
}
