/**
 * @module
 * `@gatehouse/phone-number/client`: the plugin's client half for
 * `@gatehouse/react` (docs/phone-number.md#client). `phoneNumberClient()`
 * adds `client.signIn.phoneNumber` and `client.phoneNumber.sendOtp`,
 * `.verify`, `.requestPasswordReset` and `.resetPassword`: the leading
 * library's names and answers.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin, RouteTable } from '@gatehouse/react'
import { userShape } from '@gatehouse/react/client'
import * as z from 'zod/mini'
import type { PhoneNumberErrorCode } from './errors.js'
import type { PhoneNumberEndpoints } from './routes/index.js'

const challenge = z.looseObject({ twoFactorRedirect: z.literal(true) })

export const phoneNumberRoutes = {
  signIn: {
    phoneNumber: {
      endpoint: 'signInPhoneNumber',
      method: 'POST',
      path: '/sign-in/phone-number',
      output: z.union([z.looseObject({ token: z.string(), user: userShape }), challenge]),
      signals: ['session'],
      challengeable: true,
    },
  },
  phoneNumber: {
    sendOtp: { endpoint: 'sendPhoneNumberOTP', method: 'POST', path: '/phone-number/send-otp', output: z.looseObject({ message: z.string() }) },
    verify: {
      endpoint: 'verifyPhoneNumber',
      method: 'POST',
      path: '/phone-number/verify',
      output: z.union([z.looseObject({ status: z.boolean(), token: z.nullable(z.string()), user: userShape }), challenge]),
      signals: ['session'],
      challengeable: true,
    },
    requestPasswordReset: {
      endpoint: 'requestPasswordResetPhoneNumber',
      method: 'POST',
      path: '/phone-number/request-password-reset',
      output: z.looseObject({ status: z.boolean() }),
    },
    resetPassword: { endpoint: 'resetPasswordPhoneNumber', method: 'POST', path: '/phone-number/reset-password', output: z.looseObject({ status: z.boolean() }) },
  },
} as const satisfies RouteTable

export type PhoneNumberRoutes = typeof phoneNumberRoutes

export type PhoneNumberClient = ClientPlugin<'phone-number', PhoneNumberEndpoints, PhoneNumberRoutes, {}, PhoneNumberErrorCode>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { phoneNumberClient } from '@gatehouse/phone-number/client'
 *
 * const client = createAuthClient({ plugins: [phoneNumberClient()] })
 * await client.phoneNumber.sendOtp({ phoneNumber: '+14155550100' })
 * const { data } = await client.phoneNumber.verify({ phoneNumber: '+14155550100', code: '123456' })
 */
export function phoneNumberClient(): PhoneNumberClient {
  return { id: 'phone-number', routes: phoneNumberRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `phoneNumber()`.
  interface ClientPluginRegistry {
    'phone-number': PhoneNumberClient
  }
}
