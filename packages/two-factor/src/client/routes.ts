/**
 * @module
 * The two-factor routes as the client calls them: `client.twoFactor.<name>`
 * (docs/two-factor.md#client). The verify calls may create the session (the
 * second step of a sign-in) or turn two-factor on: the session reloads after
 * them, and after enable/disable, which change `user.twoFactorEnabled`.
 * A test compares the table with the server's endpoints.
 */
import { userShape } from '@gatehouse/react/client'
import * as z from 'zod/mini'
import type { RouteTable } from '@gatehouse/react'

const post = 'POST' as const
const SESSION = ['session'] as const
const status = z.looseObject({ status: z.boolean() })
const verified = z.looseObject({ status: z.boolean(), token: z.nullable(z.string()), user: userShape })

export const twoFactorRoutes = {
  twoFactor: {
    enable: {
      endpoint: 'enableTwoFactor',
      method: post,
      path: '/two-factor/enable',
      output: z.looseObject({ totpURI: z.string(), backupCodes: z.array(z.string()) }),
      signals: SESSION,
    },
    disable: { endpoint: 'disableTwoFactor', method: post, path: '/two-factor/disable', output: status, signals: SESSION },
    getTotpUri: { endpoint: 'getTOTPURI', method: post, path: '/two-factor/get-totp-uri', output: z.looseObject({ totpURI: z.string() }) },
    verifyTotp: { endpoint: 'verifyTOTP', method: post, path: '/two-factor/verify-totp', output: verified, signals: SESSION },
    sendOtp: { endpoint: 'sendTwoFactorOTP', method: post, path: '/two-factor/send-otp', output: status },
    verifyOtp: { endpoint: 'verifyTwoFactorOTP', method: post, path: '/two-factor/verify-otp', output: verified, signals: SESSION },
    generateBackupCodes: {
      endpoint: 'generateBackupCodes',
      method: post,
      path: '/two-factor/generate-backup-codes',
      output: z.looseObject({ status: z.boolean(), backupCodes: z.array(z.string()) }),
    },
    verifyBackupCode: { endpoint: 'verifyBackupCode', method: post, path: '/two-factor/verify-backup-code', output: verified, signals: SESSION },
    enableOtp: { endpoint: 'enableTwoFactorOTP', method: post, path: '/two-factor/enable-otp', output: status },
    disableOtp: { endpoint: 'disableTwoFactorOTP', method: post, path: '/two-factor/disable-otp', output: status },
  },
} as const satisfies RouteTable

export type TwoFactorRoutes = typeof twoFactorRoutes
