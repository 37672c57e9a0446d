/**
 * @module
 * `@gatehouse/email-otp/client`: the plugin's client half for
 * `@gatehouse/react` (docs/email-otp.md#client). `emailOTPClient()` adds
 * `client.signIn.emailOtp` and `client.emailOtp.sendVerificationOtp`,
 * `.verifyEmail`, `.checkVerificationOtp`, `.requestPasswordReset`,
 * `.resetPassword`, `.requestEmailChange` and `.changeEmail`: the leading
 * library's names and answers. The leading library's older
 * `forgetPassword.emailOtp` is not among them: `client.forgetPassword` is
 * core's call, and `emailOtp.requestPasswordReset` is the same route.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin, RouteTable } from '@gatehouse/react'
import { userShape } from '@gatehouse/react/client'
import * as z from 'zod/mini'
import type { EmailOTPErrorCode } from './errors.js'
import type { EmailOTPEndpoints } from './routes/index.js'

const success = z.looseObject({ success: z.boolean() })

export const emailOTPRoutes = {
  signIn: {
    emailOtp: {
      endpoint: 'signInEmailOTP',
      method: 'POST',
      path: '/sign-in/email-otp',
      // Or `{ twoFactorRedirect: true }` and no session yet, when a second factor holds the sign-in.
      output: z.union([z.looseObject({ token: z.string(), user: userShape }), z.looseObject({ twoFactorRedirect: z.literal(true) })]),
      signals: ['session'],
      challengeable: true,
      userFields: 'create',
    },
  },
  emailOtp: {
    sendVerificationOtp: { endpoint: 'sendVerificationOTP', method: 'POST', path: '/email-otp/send-verification-otp', output: success },
    checkVerificationOtp: { endpoint: 'checkVerificationOTP', method: 'POST', path: '/email-otp/check-verification-otp', output: success },
    verifyEmail: {
      endpoint: 'verifyEmailOTP',
      method: 'POST',
      path: '/email-otp/verify-email',
      output: z.looseObject({ status: z.boolean(), token: z.nullable(z.string()), user: userShape }),
      signals: ['session'],
    },
    requestPasswordReset: { endpoint: 'requestPasswordResetEmailOTP', method: 'POST', path: '/email-otp/request-password-reset', output: success },
    resetPassword: { endpoint: 'resetPasswordEmailOTP', method: 'POST', path: '/email-otp/reset-password', output: success },
    requestEmailChange: { endpoint: 'requestEmailChangeEmailOTP', method: 'POST', path: '/email-otp/request-email-change', output: success },
    changeEmail: { endpoint: 'changeEmailEmailOTP', method: 'POST', path: '/email-otp/change-email', output: success, signals: ['session'] },
  },
} as const satisfies RouteTable

export type EmailOTPRoutes = typeof emailOTPRoutes

export type EmailOTPClient = ClientPlugin<'email-otp', EmailOTPEndpoints, EmailOTPRoutes, {}, EmailOTPErrorCode>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { emailOTPClient } from '@gatehouse/email-otp/client'
 *
 * const client = createAuthClient({ plugins: [emailOTPClient()] })
 * await client.emailOtp.sendVerificationOtp({ email: 'ada@example.com', type: 'sign-in' })
 * const { data } = await client.signIn.emailOtp({ email: 'ada@example.com', otp: '123456' })
 */
export function emailOTPClient(): EmailOTPClient {
  return { id: 'email-otp', routes: emailOTPRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `emailOTP()`.
  interface ClientPluginRegistry {
    'email-otp': EmailOTPClient
  }
}
