/**
 * @module
 * What the management routes answer about a provider (docs/sso.md#routes):
 * the leading library's sanitized shape, plus `redirectURI` and the
 * `twoFactor` policy. Built from the stored row without opening its secrets:
 * no client secret, no private key, no decryption key can reach an answer,
 * whatever the row holds. The client id shows its last four characters; a
 * SAML signing certificate shows its fingerprint and validity, not its PEM.
 */
import { X509Certificate } from 'node:crypto'
import type { ProviderRow } from '../../schema.js'
import { twoFactorPolicy } from '../../services/provider-secrets.js'

export interface CertificateSummary {
  readonly fingerprintSha256: string
  readonly notBefore: string
  readonly notAfter: string
  readonly publicKeyAlgorithm: string
}

export interface ProviderAnswer {
  readonly providerId: string
  readonly type: 'oidc' | 'saml'
  readonly issuer: string
  readonly domain: string
  readonly organizationId: string | null
  readonly domainVerified: boolean
  readonly twoFactor: 'skip' | 'require'
  readonly oidcConfig?: {
    readonly discoveryEndpoint?: string
    readonly clientIdLastFour: string
    readonly pkce?: boolean
    readonly authorizationEndpoint?: string
    readonly tokenEndpoint?: string
    readonly userInfoEndpoint?: string
    readonly jwksEndpoint?: string
    readonly scopes?: readonly string[]
    readonly tokenEndpointAuthentication?: string
  }
  readonly samlConfig?: {
    readonly entryPoint?: string
    readonly callbackUrl?: string
    readonly audience?: string
    readonly wantAssertionsSigned?: boolean
    readonly authnRequestsSigned?: boolean
    readonly identifierFormat?: string
    readonly signatureAlgorithm?: string
    readonly digestAlgorithm?: string
    readonly certificate?: readonly (CertificateSummary | { readonly error: string })[]
  }
  readonly redirectURI: string
  readonly spMetadataUrl: string
}

function parseJson(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string' || text === '') return null
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined)

/**
 * @example
 * maskClientId('client-1234') // '****1234'
 */
export function maskClientId(clientId: string): string {
  return clientId.length <= 4 ? '****' : `****${clientId.slice(-4)}`
}

/** The certificate's fingerprint and validity, or `{ error }` when it does not parse. */
export function summarizeCertificate(pem: string): CertificateSummary | { readonly error: string } {
  try {
    const cert = new X509Certificate(pem.includes('-----BEGIN') ? pem : `-----BEGIN CERTIFICATE-----\n${pem}\n-----END CERTIFICATE-----`)
    return {
      fingerprintSha256: cert.fingerprint256,
      notBefore: cert.validFrom,
      notAfter: cert.validTo,
      publicKeyAlgorithm: cert.publicKey.asymmetricKeyType?.toUpperCase() ?? 'UNKNOWN',
    }
  } catch {
    return { error: 'Failed to parse certificate' }
  }
}

/** `{baseURL}/sso/callback/{providerId}`: the redirect URI to register at the OpenID Provider. */
export function oidcRedirectURI(baseURL: string, providerId: string): string {
  return `${baseURL}/sso/callback/${encodeURIComponent(providerId)}`
}

/** `{baseURL}/sso/saml2/sp/acs/{providerId}`: the assertion consumer service of a SAML provider. */
export function samlAcsURL(baseURL: string, providerId: string): string {
  return `${baseURL}/sso/saml2/sp/acs/${encodeURIComponent(providerId)}`
}

/**
 * @example
 * return providerAnswer(row, ctx.auth.baseURL)
 */
export function providerAnswer(row: ProviderRow, baseURL: string): ProviderAnswer {
  const oidc = parseJson(row.oidcConfig)
  const saml = parseJson(row.samlConfig)
  const cert = text((saml?.idpMetadata as Record<string, unknown> | undefined)?.cert) ?? text(saml?.cert)
  return {
    providerId: row.providerId,
    type: saml ? 'saml' : 'oidc',
    issuer: row.issuer,
    domain: row.domain,
    organizationId: row.organizationId ?? null,
    domainVerified: row.domainVerified === true,
    twoFactor: twoFactorPolicy(row.twoFactor),
    ...(oidc
      ? {
          oidcConfig: {
            discoveryEndpoint: text(oidc.discoveryEndpoint),
            clientIdLastFour: maskClientId(text(oidc.clientId) ?? ''),
            pkce: flag(oidc.pkce),
            authorizationEndpoint: text(oidc.authorizationEndpoint),
            tokenEndpoint: text(oidc.tokenEndpoint),
            userInfoEndpoint: text(oidc.userInfoEndpoint),
            jwksEndpoint: text(oidc.jwksEndpoint),
            scopes: Array.isArray(oidc.scopes) ? oidc.scopes.filter((scope): scope is string => typeof scope === 'string') : undefined,
            tokenEndpointAuthentication: text(oidc.tokenEndpointAuthentication),
          },
        }
      : {}),
    ...(saml
      ? {
          samlConfig: {
            entryPoint: text(saml.entryPoint),
            callbackUrl: text(saml.callbackUrl),
            audience: text(saml.audience),
            wantAssertionsSigned: flag(saml.wantAssertionsSigned),
            authnRequestsSigned: flag(saml.authnRequestsSigned),
            identifierFormat: text(saml.identifierFormat),
            signatureAlgorithm: text(saml.signatureAlgorithm),
            digestAlgorithm: text(saml.digestAlgorithm),
            certificate: cert !== undefined ? [summarizeCertificate(cert)] : undefined,
          },
        }
      : {}),
    redirectURI: saml ? samlAcsURL(baseURL, row.providerId) : oidcRedirectURI(baseURL, row.providerId),
    spMetadataUrl: `${baseURL}/sso/saml2/sp/metadata?providerId=${encodeURIComponent(row.providerId)}`,
  }
}
