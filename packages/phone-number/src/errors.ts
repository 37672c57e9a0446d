/**
 * @module
 * The phone-number plugin's errors (docs/phone-number.md#errors). Codes and
 * messages are the leading library's, so its `phoneNumberClient()` reads
 * them unchanged.
 */
import { defineErrors } from '@gatehouse/core'

export const PhoneNumberErrors = defineErrors({
  INVALID_PHONE_NUMBER: { status: 400, message: 'Invalid phone number' },
  PHONE_NUMBER_EXIST: { status: 400, message: 'Phone number already exists' },
  PHONE_NUMBER_NOT_EXIST: { status: 400, message: "phone number isn't registered" },
  INVALID_PHONE_NUMBER_OR_PASSWORD: { status: 401, message: 'Invalid phone number or password' },
  OTP_EXPIRED: { status: 400, message: 'OTP expired' },
  INVALID_OTP: { status: 400, message: 'Invalid OTP' },
  TOO_MANY_ATTEMPTS: { status: 403, message: 'Too many attempts' },
  PHONE_NUMBER_CANNOT_BE_UPDATED: { status: 400, message: 'Phone number cannot be updated' },
  PASSWORD_RESET_DISABLED: { status: 404, message: 'Password reset by phone number is disabled' },
})

export type PhoneNumberErrorCode = keyof typeof PhoneNumberErrors
