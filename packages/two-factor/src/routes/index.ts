/**
 * @module
 * The two-factor endpoints by `auth.api` name (docs/two-factor.md#routes).
 */
import type { ResolvedTwoFactorOptions } from '../options.js'
import { disableTwoFactorOTP } from './disable-otp.js'
import { disableTwoFactor } from './disable.js'
import { enableTwoFactorOTP } from './enable-otp.js'
import { enableTwoFactor } from './enable.js'
import { generateBackupCodes } from './generate-backup-codes.js'
import { getTOTPURI } from './get-totp-uri.js'
import { sendTwoFactorOTP } from './send-otp.js'
import { verifyBackupCode } from './verify-backup-code.js'
import { verifyTwoFactorOTP } from './verify-otp.js'
import { verifyTOTP } from './verify-totp.js'

export function twoFactorEndpoints(options: ResolvedTwoFactorOptions) {
  return {
    enableTwoFactor: enableTwoFactor(options),
    disableTwoFactor: disableTwoFactor(options),
    getTOTPURI: getTOTPURI(options),
    verifyTOTP: verifyTOTP(options),
    sendTwoFactorOTP: sendTwoFactorOTP(options),
    verifyTwoFactorOTP: verifyTwoFactorOTP(options),
    generateBackupCodes: generateBackupCodes(options),
    verifyBackupCode: verifyBackupCode(options),
    enableTwoFactorOTP: enableTwoFactorOTP(options),
    disableTwoFactorOTP: disableTwoFactorOTP(),
  }
}

export type TwoFactorEndpoints = ReturnType<typeof twoFactorEndpoints>
