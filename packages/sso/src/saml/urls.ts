/**
 * @module
 * The SP's own addresses for a provider (docs/sso.md#saml-urls), the ones an
 * admin enters at the IdP: the entity ID (by default the metadata URL, so it
 * is unique per provider and resolvable), the Assertion Consumer Service and
 * the single logout service. All below the auth base URL, never derived
 * from a request's Host header.
 */
import type { StoredProvider } from '../types.js'

type Base = { readonly auth: { readonly baseURL: string } }

export interface SpUrls {
  readonly entityId: string
  readonly metadata: string
  /** Where the IdP posts its response (POST /sso/saml2/sp/acs/:providerId). */
  readonly acs: string
  /** The same-site step after the ACS (GET /sso/saml2/sp/acs/:providerId/complete). */
  readonly complete: string
  /** Single logout, both bindings (GET|POST /sso/saml2/sp/slo/:providerId). */
  readonly slo: string
  /** The page that posts an AuthnRequest to an IdP with only the HTTP-POST binding. */
  readonly postRequest: string
}

/**
 * @example
 * const { acs, entityId } = spUrls(ctx, provider)
 * // acs: https://app.example.com/api/auth/sso/saml2/sp/acs/acme
 */
export function spUrls(ctx: Base, provider: Pick<StoredProvider, 'providerId' | 'saml'>): SpUrls {
  const base = ctx.auth.baseURL
  const id = encodeURIComponent(provider.providerId)
  const metadata = `${base}/sso/saml2/sp/metadata?providerId=${id}`
  return {
    entityId: provider.saml?.spMetadata?.entityID || metadata,
    metadata,
    acs: `${base}/sso/saml2/sp/acs/${id}`,
    complete: `${base}/sso/saml2/sp/acs/${id}/complete`,
    slo: `${base}/sso/saml2/sp/slo/${id}`,
    postRequest: `${base}/sso/saml2/sp/authn-request/${id}`,
  }
}
