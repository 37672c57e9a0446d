/**
 * @module
 * Core's error catalogue: the messages core's routes raise (docs/core.md#errors),
 * plus the runtime's own (validation, routing, origin, rate limit).
 */
import { defineErrors } from './catalogue.js'

export const CoreErrors = defineErrors({
  // Runtime
  VALIDATION_ERROR: { status: 400, message: 'Invalid request' },
  INVALID_JSON: { status: 400, message: 'Request body is not valid JSON' },
  INVALID_BODY_ENCODING: { status: 400, message: 'Request body is not valid UTF-8' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  // A server misconfiguration, not the client's fault (docs/endpoints.md#body-parsers).
  BODY_ALREADY_READ: {
    status: 500,
    message: 'Request body was already read by a body parser: mount the auth handler before express.json() or any other body parser',
  },
  NOT_FOUND: { status: 404, message: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  TOO_MANY_REQUESTS: { status: 429, message: 'Too many requests. Please try again later.' },
  INTERNAL_SERVER_ERROR: { status: 500, message: 'Internal server error' },
  // A database or secondary-storage fault that says nothing about the request: retry after `Retry-After` (docs/core.md#transient-faults).
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service temporarily unavailable. Please try again shortly.' },
  SERVER_ONLY: { status: 404, message: 'Not found' },

  // Origin and redirect targets (docs/security.md#trusted-origins-securityoriginsts)
  INVALID_ORIGIN: { status: 403, message: 'Invalid origin' },
  MISSING_ORIGIN: { status: 403, message: 'Missing or null Origin' },
  INVALID_CALLBACK_URL: { status: 403, message: 'Invalid callbackURL' },
  INVALID_REDIRECT_URL: { status: 403, message: 'Invalid redirectURL' },
  INVALID_ERROR_CALLBACK_URL: { status: 403, message: 'Invalid errorCallbackURL' },
  INVALID_NEW_USER_CALLBACK_URL: { status: 403, message: 'Invalid newUserCallbackURL' },

  // Sign-in, sessions and accounts
  USER_NOT_FOUND: { status: 404, message: 'User not found' },
  FAILED_TO_CREATE_USER: { status: 422, message: 'Failed to create user' },
  FAILED_TO_CREATE_SESSION: { status: 400, message: 'Failed to create session' },
  FAILED_TO_UPDATE_USER: { status: 400, message: 'Failed to update user' },
  FAILED_TO_GET_SESSION: { status: 401, message: 'Failed to get session' },
  INVALID_PASSWORD: { status: 400, message: 'Invalid password' },
  INVALID_EMAIL: { status: 400, message: 'Invalid email' },
  INVALID_EMAIL_OR_PASSWORD: { status: 401, message: 'Invalid email or password' },
  SOCIAL_ACCOUNT_ALREADY_LINKED: { status: 400, message: 'Social account already linked' },
  PROVIDER_NOT_FOUND: { status: 404, message: 'Provider not found' },
  INVALID_TOKEN: { status: 400, message: 'invalid token' },
  ID_TOKEN_NOT_SUPPORTED: { status: 400, message: 'id_token not supported' },
  FAILED_TO_GET_USER_INFO: { status: 400, message: 'Failed to get user info' },
  USER_EMAIL_NOT_FOUND: { status: 400, message: 'User email not found' },
  EMAIL_NOT_VERIFIED: { status: 403, message: 'Email not verified' },
  PASSWORD_TOO_SHORT: { status: 400, message: 'Password too short' },
  PASSWORD_TOO_LONG: { status: 400, message: 'Password too long' },
  USER_ALREADY_EXISTS: { status: 422, message: 'User already exists' },
  EMAIL_CAN_NOT_BE_UPDATED: { status: 400, message: 'Email can not be updated' },
  CREDENTIAL_ACCOUNT_NOT_FOUND: { status: 400, message: 'Credential account not found' },
  SESSION_EXPIRED: { status: 400, message: 'Session expired. Re-authenticate to perform this action.' },
  FAILED_TO_UNLINK_LAST_ACCOUNT: { status: 400, message: "You can't unlink your last account" },
  ACCOUNT_NOT_FOUND: { status: 400, message: 'Account not found' },
  USER_ALREADY_HAS_PASSWORD: {
    status: 400,
    message: 'User already has a password. Provide that to delete the account.',
  },
  FIELD_REQUIRED: { status: 400, message: '{field} is required' },
  CALLBACK_URL_REQUIRED: { status: 400, message: 'callbackURL is required' },
  FAILED_TO_CREATE_VERIFICATION: { status: 400, message: 'Unable to create verification' },
  VERIFICATION_EMAIL_NOT_ENABLED: { status: 400, message: "Verification email isn't enabled" },
  EMAIL_PASSWORD_DISABLED: { status: 400, message: 'Email and password is not enabled' },
  EMAIL_PASSWORD_SIGN_UP_DISABLED: { status: 400, message: 'Email and password sign up is not enabled' },
  RESET_PASSWORD_DISABLED: { status: 400, message: "Reset password isn't enabled" },
  CHANGE_EMAIL_DISABLED: { status: 400, message: 'Change email is disabled' },
  SESSION_NOT_FOUND: { status: 400, message: 'Session not found' },
  SESSION_NOT_FRESH: { status: 403, message: 'Session is not fresh' },
  // An API key (or another plugin credential) on a route that changes credentials (docs/sessions.md#credentials-other-than-the-cookie).
  CREDENTIAL_NOT_ALLOWED: { status: 403, message: 'This action needs a signed-in session' },
  // One-time tokens (docs/sessions.md#one-time-tokens); the messages are those of the leading library's plugin.
  ONE_TIME_TOKEN_DISABLED: { status: 404, message: 'One-time tokens are disabled' },
  ONE_TIME_TOKEN_CLIENT_REQUESTS_DISABLED: { status: 400, message: 'Client requests are disabled' },
  INVALID_ONE_TIME_TOKEN: { status: 400, message: 'Invalid token' },
  ONE_TIME_TOKEN_SESSION_NOT_FOUND: { status: 400, message: 'Session not found' },
  ONE_TIME_TOKEN_SESSION_EXPIRED: { status: 400, message: 'Session expired' },
  USER_ALREADY_HAS_A_PASSWORD: { status: 400, message: 'user already has a password' },
  LINKING_NOT_ALLOWED: { status: 401, message: 'Account not linked - linking not allowed' },
  LINKING_DIFFERENT_EMAILS_NOT_ALLOWED: {
    status: 401,
    message: 'Account not linked - different emails not allowed',
  },
  LINKING_FAILED: { status: 401, message: 'Account not linked - unable to create account' },
  UNAUTHORIZED: { status: 401, message: 'Unauthorized' },
  // A sign-in whose checked credential was revoked before its session was written (docs/sessions.md#sign-ins-racing-a-revocation).
  CREDENTIALS_CHANGED: { status: 401, message: 'Credentials changed during sign-in' },

  // Social sign-in and provider tokens (docs/social.md#errors)
  SIGN_UP_DISABLED: { status: 401, message: 'signup disabled' },
  PROVIDER_NOT_SUPPORTED: { status: 400, message: 'Provider {id} is not supported.' },
  TOKEN_REFRESH_NOT_SUPPORTED: { status: 400, message: 'Provider {id} does not support token refreshing.' },
  FAILED_TO_REFRESH_ACCESS_TOKEN: { status: 400, message: 'Failed to refresh access token' },
  FAILED_TO_GET_ACCESS_TOKEN: { status: 400, message: 'Failed to get a valid access token' },
  USER_ID_OR_SESSION_REQUIRED: { status: 400, message: 'Either userId or session is required' },
  ACCOUNT_PROVIDER_NOT_CONFIGURED: { status: 500, message: 'Account provider not configured' },
  // A generic OpenID Connect provider's discovery document could not be fetched.
  PROVIDER_UNAVAILABLE: { status: 503, message: 'Provider is unavailable' },

  // Account changes (docs/accounts.md#profile-email-change-deletion-and-linked-accounts)
  EMAIL_IS_THE_SAME: { status: 400, message: 'Email is the same' },
  COULDNT_UPDATE_EMAIL: { status: 400, message: "Couldn't update your email" },
  NO_FIELDS_TO_UPDATE: { status: 400, message: 'No fields to update' },
  // delete-user exists only when enabled, so a disabled one answers like an unknown route.
  DELETE_USER_DISABLED: { status: 404, message: 'Delete user is disabled' },
  FAILED_TO_SEND_EMAIL: { status: 500, message: 'Failed to send email' },
  // send-verification-email with a session: the email must be the user's own and unverified
  EMAIL_MISMATCH: { status: 400, message: 'Email mismatch' },
  EMAIL_ALREADY_VERIFIED: { status: 400, message: 'Email is already verified' },
})

export type CoreErrorCode = keyof typeof CoreErrors
