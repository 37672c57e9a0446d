/**
 * @module
 * `@gatehouse/oidc-provider`: an OAuth 2.0 authorization server and OpenID
 * Provider for Gatehouse (docs/oidc-provider.md).
 */
export { oidcProvider } from './plugin.js'
export { OAuthError, OidcErrors, oauthErrorCode } from './errors.js'
export type { OidcErrorCode } from './errors.js'
export { oidcProviderSchema } from './schema.js'
export type { UserGrant } from './services/grants.js'
export {
  DEFAULT_ACCESS_TOKEN_EXPIRES_IN,
  DEFAULT_CODE_EXPIRES_IN,
  DEFAULT_REFRESH_TOKEN_EXPIRES_IN,
  DEFAULT_REFRESH_TOKEN_MAX_AGE,
  PENDING_REQUEST_MAX_AGE,
  STANDARD_SCOPES,
  resolveOidcOptions,
} from './options.js'
export type {
  ClientType,
  DiscoveryMetadata,
  OAuthClient,
  OidcProviderOptions,
  ResolvedOidcOptions,
  SigningAlgorithm,
  TokenEndpointAuthMethod,
  TrustedClient,
} from './options.js'
