/**
 * @module
 * The passkey plugin's error catalogue (docs/passkeys.md#errors). No
 * session is core's 401 "Unauthorized"; a stale one for registration is
 * core's 403 "Session is not fresh"; a registration without the password or
 * the second factor the account has is 403 too
 * (docs/passkeys.md#registering-a-passkey), a wrong password core's 400
 * "Invalid password". A ceremony that fails any check
 * (origin, relying party, challenge, signature, counter, flags) is 400 with
 * a message naming what to do, never which check failed in detail to the
 * caller (the log says which). A sign-in with an unknown credential is 401
 * like a wrong password. Someone else's passkey is "Passkey not found", the
 * same answer as a passkey that does not exist, so ids reveal nothing.
 */
import { defineErrors } from '@gatehouse/core'

/**
 * @example
 * throw new AuthError(PasskeyErrors.PASSKEY_NOT_FOUND) // 404 "Passkey not found"
 */
export const PasskeyErrors = defineErrors({
  CHALLENGE_NOT_FOUND: { status: 400, message: 'Challenge not found or already used. Start again' },
  CHALLENGE_EXPIRED: { status: 400, message: 'Challenge expired. Start again' },
  FAILED_TO_VERIFY_REGISTRATION: { status: 400, message: 'Failed to verify registration' },
  PASSKEY_ALREADY_REGISTERED: { status: 400, message: 'This passkey is already registered' },
  AUTHENTICATION_FAILED: { status: 401, message: 'Authentication failed' },
  PASSWORD_REQUIRED: { status: 403, message: 'Your password is required to add a passkey' },
  SECOND_FACTOR_REQUIRED: { status: 403, message: 'A code from your authenticator app or a backup code is required to add a passkey' },
  PASSKEY_NOT_FOUND: { status: 404, message: 'Passkey not found' },
  UNABLE_TO_CREATE_SESSION: { status: 500, message: 'Unable to create session' },
})

export type PasskeyErrorCode = keyof typeof PasskeyErrors
