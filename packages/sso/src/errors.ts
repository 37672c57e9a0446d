/**
 * @module
 * The single sign-on plugin's error catalogue (docs/sso.md#errors). Messages
 * are the leading library's SSO plugin's where it has one, so clients written
 * against it read the same text; the status is fixed here, never at a throw
 * site. Failures of a browser sign-in do not use these: they end in a
 * redirect with `?error=<code>` (services/provision.ts).
 */
import { defineErrors } from '@gatehouse/core'

/**
 * @example
 * throw new AuthError(SsoErrors.PROVIDER_NOT_FOUND) // 404 "Provider not found"
 */
export const SsoErrors = defineErrors({
  // Who may manage a provider (services/access.ts)
  ORGANIZATION_ID_REQUIRED: { status: 400, message: 'Organization ID is required' },
  YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION: { status: 403, message: 'You are not a member of the organization' },
  YOU_ARE_NOT_ALLOWED_TO_REGISTER_SSO_PROVIDERS: {
    status: 403,
    message: 'You must be an organization owner or admin to register SSO providers',
  },
  NO_ACCESS_TO_PROVIDER: { status: 403, message: "You don't have access to this provider" },
  ORGANIZATION_PLUGIN_REQUIRED: { status: 500, message: 'The sso plugin needs the organization plugin' },

  // Providers
  PROVIDER_NOT_FOUND: { status: 404, message: 'Provider not found' },
  PROVIDER_ID_TAKEN: { status: 422, message: 'SSO provider with this providerId already exists' },
  PROVIDER_ID_RESERVED: { status: 422, message: 'This providerId is reserved and cannot be used for an SSO provider' },
  INVALID_PROVIDER_ID: {
    status: 400,
    message: 'providerId must be 1 to 64 letters, digits, "-" or "_", starting with a letter or digit',
  },
  PROVIDERS_LIMIT_REACHED: { status: 403, message: 'You have reached the maximum number of SSO providers' },
  REGISTRATION_DISABLED: { status: 403, message: 'SSO provider registration is disabled' },
  INVALID_DOMAIN: { status: 400, message: 'Invalid domain' },
  PROTOCOL_CONFIG_REQUIRED: { status: 400, message: 'Either oidcConfig or samlConfig is required' },
  ONE_PROTOCOL_ONLY: { status: 400, message: 'A provider has oidcConfig or samlConfig, not both' },
  NO_FIELDS_TO_UPDATE: { status: 400, message: 'No fields provided for update' },
  OIDC_NOT_CONFIGURED_FOR_UPDATE: {
    status: 400,
    message: "Cannot update OIDC config for a provider that doesn't have OIDC configured",
  },
  SAML_NOT_CONFIGURED_FOR_UPDATE: {
    status: 400,
    message: "Cannot update SAML config for a provider that doesn't have SAML configured",
  },
  PROVIDER_CHANGED_DURING_UPDATE: {
    status: 409,
    message: 'SSO provider changed while the update was in progress. Reload the provider and try again',
  },
  IDENTITY_FIELDS_LOCKED: { status: 409, message: 'Cannot change SSO provider identity fields while linked accounts exist' },
  CLIENT_SECRET_REQUIRED: {
    status: 400,
    message: 'clientSecret is required when using client_secret_basic or client_secret_post authentication',
  },
  SAML_CERT_REQUIRED: { status: 400, message: 'SAML configuration requires the IdP signing certificate (cert or idpMetadata.cert)' },
  // The message is the discovery's own, for the admin registering the provider (oidc/discovery.ts).
  DISCOVERY_FAILED: { status: 400, message: 'OIDC discovery failed' },
  // The message names the field (placeholder filled at the throw site).
  UNSAFE_URL: { status: 400, message: '{field} must be an https URL on a public host, or on a trusted origin' },
  PROVIDER_SECRET_UNREADABLE: { status: 500, message: 'The provider configuration cannot be read' },

  // Domain verification (routes/domain)
  DOMAIN_ALREADY_VERIFIED: { status: 409, message: 'Domain has already been verified' },
  NO_PENDING_DOMAIN_VERIFICATION: { status: 404, message: 'No pending domain verification exists' },
  DOMAIN_VERIFICATION_FAILED: { status: 502, message: 'Unable to verify domain ownership for {domain}. Try again later' },
  DOMAIN_VERIFIED_FOR_ANOTHER_PROVIDER: { status: 409, message: 'This domain is already verified for another SSO provider' },
  PROVIDER_CHANGED: {
    status: 409,
    message: 'SSO provider changed while domain verification was in progress. Reload the provider and try again',
  },

  // Sign-in (routes/sign-in-sso.ts, the callbacks)
  SIGN_IN_TARGET_REQUIRED: { status: 400, message: 'email, organizationSlug, domain or providerId is required' },
  PROVIDER_DOMAIN_NOT_VERIFIED: { status: 400, message: 'Provider domain has not been verified' },
  OIDC_NOT_CONFIGURED: { status: 400, message: 'OIDC provider is not configured' },
  SAML_NOT_CONFIGURED: { status: 400, message: 'SAML provider is not configured' },
  // The second step (two-factor) of a sign-in whose provider was deleted since the IdP's answer (services/provider-removal.ts).
  SSO_PROVIDER_GONE: { status: 401, message: 'The single sign-on provider of this sign-in no longer exists. Sign in again' },
})

export type SsoErrorCode = keyof typeof SsoErrors

/**
 * The codes a browser sign-in ends with, as `?error=<code>` on the error
 * URL (docs/sso.md#sign-in-errors). Not AuthErrors: the browser is
 * redirected, it never sees JSON.
 */
export type SsoSignInErrorCode =
  | 'invalid_email'
  | 'email_domain_mismatch'
  | 'domain_not_verified'
  | 'account_not_linked'
  | 'signup_disabled'
  | 'banned_user'
  | 'credentials_changed'
  | 'two_factor_required'
  | 'organization_membership_limit_reached'
  | 'role_not_found'
  | 'member_suspended'
  | 'provider_changed'
  | 'unable_to_create_user'
  | 'internal_server_error'
