/**
 * @module
 * The email-otp plugin's errors (docs/email-otp.md#errors). Codes, messages
 * and statuses are the leading library's, so its `emailOTPClient()` reads
 * them unchanged.
 */
import { defineErrors } from '@gatehouse/core'

export const EmailOTPErrors = defineErrors({
  OTP_EXPIRED: { status: 400, message: 'OTP expired' },
  INVALID_OTP: { status: 400, message: 'Invalid OTP' },
  TOO_MANY_ATTEMPTS: { status: 403, message: 'Too many attempts' },
  INVALID_OTP_TYPE: { status: 400, message: 'Invalid OTP type' },
  CHANGE_EMAIL_DISABLED: { status: 400, message: 'Change email with OTP is disabled' },
  EMAIL_IS_THE_SAME: { status: 400, message: 'Email is the same' },
  OTP_REQUIRED: { status: 400, message: 'OTP is required to verify current email' },
  EMAIL_ALREADY_IN_USE: { status: 400, message: 'Email already in use' },
})

export type EmailOTPErrorCode = keyof typeof EmailOTPErrors
