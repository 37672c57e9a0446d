/**
 * @module
 * `emailOTP(options)`: codes by email (docs/email-otp.md). No tables of its
 * own: codes live in core's verification table, hashed (core's one-time
 * code store). Every route has its own limit per client (3 per minute by
 * default) and every address its own budget of codes, whoever asks.
 */
import { createAfterAnswer, definePlugin } from '@gatehouse/core'
import { EmailOTPErrors } from './errors.js'
import { resolveOptions, type EmailOTPOptions } from './options.js'
import { emailOTPEndpoints } from './routes/index.js'

const LIMITED_PATHS = new Set([
  '/email-otp/send-verification-otp',
  '/email-otp/check-verification-otp',
  '/email-otp/verify-email',
  '/sign-in/email-otp',
  '/email-otp/request-password-reset',
  '/forget-password/email-otp',
  '/email-otp/reset-password',
  '/email-otp/request-email-change',
  '/email-otp/change-email',
])

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   plugins: [emailOTP({ sendVerificationOTP: ({ email, otp, type }) => mailer.queue(email, `Your code: ${otp}`, type) })],
 * })
 */
export function emailOTP(options: EmailOTPOptions) {
  const resolved = resolveOptions(options)
  const later = createAfterAnswer()
  return definePlugin({
    id: 'email-otp',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'emailOTPClient', from: '@gatehouse/email-otp/client' },
    endpoints: emailOTPEndpoints(resolved, later),
    errors: EmailOTPErrors,
    rateLimit: [{ pathMatcher: (path: string) => LIMITED_PATHS.has(path), window: resolved.rateLimit.window, max: resolved.rateLimit.max }],
    /** Resolves once mails sent after their answer have gone (tests, graceful shutdown). */
    idle: () => later.idle(),
  })
}
