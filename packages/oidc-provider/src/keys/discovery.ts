/**
 * @module
 * The OpenID Provider metadata (OpenID Connect Discovery 1.0 §3, RFC 8414 §2)
 * served at `{issuer}/.well-known/openid-configuration`. It advertises only
 * what the plugin does: `code` only, S256 (plus `plain` only when enabled),
 * the configured signing algorithms and never `none`, no request objects.
 *
 * `options.metadata` is merged last, within limits (docs/oidc-provider.md#discovery):
 * - `issuer` is never replaced: relying parties reject a document whose
 *   issuer differs from the URL it came from, and every `iss` uses ours.
 * - endpoint URLs and `jwks_uri` are replaced only by absolute URLs on the
 *   issuer's origin (a different path behind a proxy, say); anything else is
 *   ignored, so metadata cannot send clients' secrets or users to another host.
 * - fields describing protocol behaviour (response types, grants, auth
 *   methods, PKCE methods, algorithms, request parameters, ...) follow the
 *   configuration and are not replaced: a document claiming what the server
 *   does not do breaks relying parties.
 * - everything else (`scopes_supported`, `claims_supported`,
 *   `service_documentation`, `op_policy_uri`, ...) is taken as given.
 */
import type { ResolvedOidcOptions } from '../options.js'
import { signingAlgorithms } from './algorithms.js'
import { issuer } from './issuer.js'
import type { KeyContext } from '@gatehouse/core'

/** Endpoint fields and their paths below the issuer. */
export const ENDPOINT_PATHS = {
  authorization_endpoint: '/oauth2/authorize',
  token_endpoint: '/oauth2/token',
  userinfo_endpoint: '/oauth2/userinfo',
  registration_endpoint: '/oauth2/register',
  revocation_endpoint: '/oauth2/revoke',
  introspection_endpoint: '/oauth2/introspect',
  end_session_endpoint: '/oauth2/end-session',
  jwks_uri: '/jwks',
} as const

export const CLAIMS_SUPPORTED = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'at_hash',
  'azp',
  'amr',
  'acr',
  'email',
  'email_verified',
  'name',
  'picture',
  'given_name',
  'family_name',
] as const

/** Fields that state what the server does; `options.metadata` cannot change them. */
const BEHAVIOUR_FIELDS = new Set([
  'issuer',
  'response_types_supported',
  'response_modes_supported',
  'grant_types_supported',
  'subject_types_supported',
  'id_token_signing_alg_values_supported',
  'token_endpoint_auth_methods_supported',
  'revocation_endpoint_auth_methods_supported',
  'introspection_endpoint_auth_methods_supported',
  'code_challenge_methods_supported',
  'prompt_values_supported',
  'claims_parameter_supported',
  'request_parameter_supported',
  'request_uri_parameter_supported',
  'authorization_response_iss_parameter_supported',
])

function sameOriginURL(value: unknown, origin: string): value is string {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return url.origin === origin && url.hash === '' && url.username === '' && url.password === ''
  } catch {
    return false
  }
}

/**
 * @example
 * discoveryDocument(ctx, options).token_endpoint // 'https://app.example.com/api/auth/oauth2/token'
 */
export function discoveryDocument(ctx: KeyContext, options: ResolvedOidcOptions): Record<string, unknown> {
  const base = issuer(ctx)
  const endpoints = Object.fromEntries(Object.entries(ENDPOINT_PATHS).map(([field, path]) => [field, `${base}${path}`]))
  const document: Record<string, unknown> = {
    issuer: base,
    ...endpoints,
    scopes_supported: [...options.scopes],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...signingAlgorithms(options)],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    // RFC 7009 §2.1: a public client revokes its own tokens naming only its client_id.
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    // RFC 7662 §2.1: introspection needs an authenticated caller.
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: options.allowPlainCodeChallengeMethod ? ['S256', 'plain'] : ['S256'],
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    claims_supported: [...CLAIMS_SUPPORTED],
    // OpenID Connect Discovery §3: the classes `acr_values` may ask for, when the application configured some.
    ...(options.acrValues.length > 0 ? { acr_values_supported: options.acrValues.map((entry) => entry.value) } : {}),
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    authorization_response_iss_parameter_supported: true,
  }
  const origin = new URL(base).origin
  for (const [field, value] of Object.entries(options.metadata ?? {})) {
    if (value === undefined || BEHAVIOUR_FIELDS.has(field)) continue
    if (field in ENDPOINT_PATHS) {
      if (sameOriginURL(value, origin)) document[field] = value
      continue
    }
    document[field] = value
  }
  return document
}
