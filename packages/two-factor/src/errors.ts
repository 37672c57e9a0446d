/**
 * @module
 * The two-factor error catalogue (docs/two-factor.md#errors). A wrong,
 * reused or expired code is one message, "Invalid code", whatever the
 * reason: an attacker learns nothing about which codes were close. A locked
 * user gets 429 until the lockout ends; no pending sign-in (or an expired
 * one) is 401, as a missing session is. A settings route that reads the
 * secret, mints backup codes or turns two-factor off without proof of the
 * second factor is 403 (docs/two-factor.md#proof-of-the-second-factor).
 * Emailed codes for a user who did not choose them are 400
 * (docs/two-factor.md#email-codes).
 */
import { defineErrors } from '@gatehouse/core'

/**
 * @example
 * throw new AuthError(TwoFactorErrors.INVALID_CODE) // 401 "Invalid code"
 */
export const TwoFactorErrors = defineErrors({
  INVALID_CODE: { status: 401, message: 'Invalid code' },
  TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many attempts. Try again later' },
  TWO_FACTOR_NOT_ENABLED: { status: 400, message: 'Two-factor authentication is not enabled' },
  TWO_FACTOR_ALREADY_ENABLED: { status: 400, message: 'Two-factor authentication is already enabled' },
  TOTP_NOT_SET_UP: { status: 400, message: 'TOTP is not set up' },
  NO_PENDING_SIGN_IN: { status: 401, message: 'No pending two-factor sign-in' },
  OTP_NOT_CONFIGURED: { status: 400, message: 'Email codes are not configured' },
  OTP_NOT_ENABLED: { status: 400, message: 'Email codes are not enabled for this account' },
  NO_PASSWORD: { status: 400, message: 'This account has no password' },
  TWO_FACTOR_PROOF_REQUIRED: { status: 403, message: 'A code from your authenticator app or a backup code is required' },
})

export type TwoFactorErrorCode = keyof typeof TwoFactorErrors
