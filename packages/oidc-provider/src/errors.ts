/**
 * @module
 * The provider's error catalogue (docs/oidc-provider.md#errors). Each entry
 * carries its status; `OAuthError` answers with the OAuth wire shape
 * `{ error, error_description }` (RFC 6749 §5.2) instead of core's
 * `{ code, message }`, the `error` being the catalogue's OAuth code.
 * Authorization errors travel by redirect instead (authorize-errors), using
 * the same codes. The routes a page calls through the client half (client
 * info, consent) throw a plain `AuthError`, so their answers keep core's
 * `{ code, message }` shape and the client narrows the codes.
 */
import { AuthError, defineErrors, type AuthErrorOptions, type ErrorDefinition } from '@gatehouse/core'

/**
 * @example
 * throw new OAuthError(OidcErrors.INVALID_GRANT) // 400 {"error":"invalid_grant","error_description":"Invalid or expired grant"}
 */
export const OidcErrors = defineErrors({
  INVALID_REQUEST: { status: 400, message: 'Invalid request' },
  /** Client authentication failed at the token, revoke or introspect endpoint (RFC 6749 §5.2: 401). */
  INVALID_CLIENT: { status: 401, message: 'Invalid client credentials' },
  /** An authorization request names a client that does not exist: shown, never redirected. */
  UNKNOWN_CLIENT: { status: 400, message: 'Invalid client' },
  INVALID_REDIRECT_URI: { status: 400, message: 'Invalid redirect URI' },
  CLIENT_DISABLED: { status: 400, message: 'Client is disabled' },
  INVALID_GRANT: { status: 400, message: 'Invalid or expired grant' },
  UNAUTHORIZED_CLIENT: { status: 400, message: 'The client may not use this grant type' },
  UNSUPPORTED_GRANT_TYPE: { status: 400, message: 'Unsupported grant type' },
  UNSUPPORTED_RESPONSE_TYPE: { status: 400, message: 'Unsupported response type' },
  INVALID_SCOPE: { status: 400, message: 'Invalid scope' },
  INVALID_CLIENT_METADATA: { status: 400, message: 'Invalid client metadata' },
  INVALID_TOKEN: { status: 401, message: 'Invalid or expired access token' },
  INSUFFICIENT_SCOPE: { status: 403, message: 'The access token lacks the openid scope' },
  /** Registration without a session while dynamic registration is off (RFC 7591 §3.2.2). */
  REGISTRATION_NOT_ALLOWED: { status: 401, message: 'Client registration requires a signed-in user' },
  ACCESS_DENIED: { status: 403, message: 'The user denied the request' },
  NO_PENDING_CONSENT: { status: 400, message: 'No pending consent request' },
  /**
   * An answer without `consentId` while it is unclear which request the user saw: none was
   * loaded from GET /oauth2/consent, or another was loaded or started too (docs/oidc-provider.md#consent).
   */
  CONSENT_ID_REQUIRED: { status: 400, message: 'Say which consent request was shown: send its consentId' },
  /** An admin's impersonation session (docs/oidc-provider.md#impersonation-sessions). */
  IMPERSONATION_NOT_ALLOWED: { status: 403, message: 'An impersonation session cannot authorize applications' },
  CLIENT_NOT_FOUND: { status: 404, message: 'Client not found' },
  NO_CONSENT_PAGE: { status: 500, message: 'No consent page provided' },
  SERVER_ERROR: { status: 500, message: 'Server error' },
})

export type OidcErrorCode = keyof typeof OidcErrors

/** The OAuth `error` value of each catalogue code (RFC 6749 §4.1.2.1, §5.2; RFC 7591 §3.2.2; RFC 6750 §3.1). */
const oauthCodes: Readonly<Record<OidcErrorCode, string>> = {
  INVALID_REQUEST: 'invalid_request',
  INVALID_CLIENT: 'invalid_client',
  UNKNOWN_CLIENT: 'invalid_client',
  INVALID_REDIRECT_URI: 'invalid_redirect_uri',
  CLIENT_DISABLED: 'client_disabled',
  INVALID_GRANT: 'invalid_grant',
  UNAUTHORIZED_CLIENT: 'unauthorized_client',
  UNSUPPORTED_GRANT_TYPE: 'unsupported_grant_type',
  UNSUPPORTED_RESPONSE_TYPE: 'unsupported_response_type',
  INVALID_SCOPE: 'invalid_scope',
  INVALID_CLIENT_METADATA: 'invalid_client_metadata',
  INVALID_TOKEN: 'invalid_token',
  INSUFFICIENT_SCOPE: 'insufficient_scope',
  REGISTRATION_NOT_ALLOWED: 'invalid_token',
  ACCESS_DENIED: 'access_denied',
  NO_PENDING_CONSENT: 'invalid_request',
  CONSENT_ID_REQUIRED: 'invalid_request',
  IMPERSONATION_NOT_ALLOWED: 'access_denied',
  CLIENT_NOT_FOUND: 'invalid_client',
  NO_CONSENT_PAGE: 'server_error',
  SERVER_ERROR: 'server_error',
}

/** The OAuth `error` value for a catalogue code. */
export function oauthErrorCode(code: OidcErrorCode): string {
  return oauthCodes[code]
}

/**
 * An `AuthError` whose JSON is the OAuth error object. `description`
 * replaces the catalogue message for a more precise one.
 *
 * @example
 * throw new OAuthError(OidcErrors.INVALID_REQUEST, { message: 'code is required' })
 */
export class OAuthError extends AuthError<OidcErrorCode> {
  constructor(definition: ErrorDefinition<OidcErrorCode>, options: AuthErrorOptions = {}) {
    super(definition, options)
  }

  get error(): string {
    return oauthCodes[this.code]
  }

  override toJSON(): Record<string, unknown> {
    return { error: this.error, error_description: this.message }
  }
}
