export { sso } from './plugin.js'
export { SsoErrors } from './errors.js'
export { SamlErrors } from './saml/errors.js'
export { createSafeFetch, isUnsafeUrlError, UnsafeUrlError } from './net/index.js'
export type { SafeFetchPolicy, UnsafeUrlReason } from './net/index.js'
export type { SsoErrorCode, SsoSignInErrorCode } from './errors.js'
export { DEFAULT_PROVIDERS_LIMIT, DEFAULT_SAML_CLOCK_SKEW_MS, MAX_SAML_CLOCK_SKEW_MS, resolveOptions } from './options.js'
export type { ResolveTxt, ResolvedSsoOptions, RoleMapping, SsoOptions } from './options.js'
export { ssoSchema } from './schema.js'
export type { ProviderRow } from './schema.js'
export type { SsoEndpoints } from './routes/index.js'
export type { CertificateSummary, ProviderAnswer } from './routes/provider/provider-answer.js'
export { completeSsoSignIn } from './services/provision.js'
export { findProvider, readProvider } from './services/provider-secrets.js'
export { challengeName } from './domains/dns-challenge.js'
export { emailDomain, normalizeDomain } from './domains/email-domain.js'
export type {
  OidcConfig,
  OidcMapping,
  SamlConfig,
  SamlIdpMetadata,
  SamlMapping,
  SamlSpMetadata,
  SsoLanding,
  SsoProfile,
  SsoTwoFactorPolicy,
  StoredProvider,
  TokenEndpointAuthentication,
} from './types.js'
