/**
 * @module
 * The provider configurations as the routes take them (docs/sso.md#registering-a-provider):
 * the shapes of `oidcConfig` and `samlConfig` in the register and update
 * bodies, wire-compatible with the leading library's SSO plugin, and the
 * decrypted provider every sign-in works from. Kept below the routes and the
 * services so that neither imports the other for a type.
 */

/** Which claim or attribute holds each user field; every name has a default (docs/sso.md#claim-mapping). */
export interface OidcMapping {
  readonly id?: string
  readonly email?: string
  readonly emailVerified?: string
  readonly name?: string
  readonly image?: string
  readonly groups?: string
  readonly extraFields?: Readonly<Record<string, string>>
}

export type TokenEndpointAuthentication = 'client_secret_basic' | 'client_secret_post'

export interface OidcConfig {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
  readonly discoveryEndpoint: string
  readonly authorizationEndpoint?: string
  readonly tokenEndpoint?: string
  readonly userInfoEndpoint?: string
  readonly jwksEndpoint?: string
  readonly tokenEndpointAuthentication?: TokenEndpointAuthentication
  readonly scopes?: readonly string[]
  /** PKCE S256 is always sent; kept for wire compatibility (docs/sso.md#openid-connect). */
  readonly pkce?: boolean
  /**
   * True when the registrant gave the endpoints and asked for no discovery: sign-in uses
   * `authorizationEndpoint`, `tokenEndpoint`, `jwksEndpoint` (and `userInfoEndpoint`) as stored.
   */
  readonly skipDiscovery?: boolean
  readonly mapping?: OidcMapping
}

export interface SamlMapping {
  readonly id?: string
  readonly email?: string
  readonly emailVerified?: string
  readonly name?: string
  readonly firstName?: string
  readonly lastName?: string
  readonly groups?: string
  readonly extraFields?: Readonly<Record<string, string>>
}

export interface SamlIdpMetadata {
  readonly metadata?: string
  readonly entityID?: string
  readonly cert?: string
  readonly singleSignOnService?: readonly { readonly Binding: string; readonly Location: string }[]
  readonly singleLogoutService?: readonly { readonly Binding: string; readonly Location: string }[]
}

export interface SamlSpMetadata {
  readonly metadata?: string
  readonly entityID?: string
  readonly binding?: string
}

export interface SamlConfig {
  readonly issuer: string
  readonly entryPoint: string
  /** The IdP's signing certificate (PEM or base64 DER): the only key a response may be signed with. */
  readonly cert: string
  readonly callbackUrl: string
  readonly audience?: string
  readonly idpMetadata?: SamlIdpMetadata
  readonly spMetadata?: SamlSpMetadata
  readonly wantAssertionsSigned?: boolean
  readonly authnRequestsSigned?: boolean
  readonly signatureAlgorithm?: string
  readonly digestAlgorithm?: string
  readonly identifierFormat?: string
  /** The SP's signing key (PEM), stored encrypted. */
  readonly privateKey?: string
  /** The SP's decryption key for encrypted assertions (PEM), stored encrypted. */
  readonly decryptionPvk?: string
  readonly mapping?: SamlMapping
}

/** Whether an SSO sign-in of a user with Gatehouse's two-factor on also asks for it (docs/sso.md#two-factor). */
export type SsoTwoFactorPolicy = 'skip' | 'require'

/** A provider row, parsed, with its secrets decrypted: what the sign-in flows read. */
export interface StoredProvider {
  readonly id: string
  readonly providerId: string
  readonly issuer: string
  /** Lowercase. */
  readonly domain: string
  readonly domainVerified: boolean
  readonly organizationId: string
  readonly userId: string | null
  readonly oidc: OidcConfig | null
  readonly saml: SamlConfig | null
  readonly twoFactor: SsoTwoFactorPolicy
}

/** A signed-in identity, from an ID Token and UserInfo or from a SAML assertion. */
export interface SsoProfile {
  /** The OIDC `sub` or the SAML NameID: the account's id at the provider. */
  readonly accountId: string
  readonly email: string
  /** What the IdP said, or null when it said nothing. */
  readonly emailVerified: boolean | null
  readonly name: string
  readonly image?: string | null
  readonly groups?: readonly string[]
  readonly raw: Readonly<Record<string, unknown>>
}

/** Where a sign-in ends, read back from the stored state (never from the IdP's answer). */
export interface SsoLanding {
  readonly callbackURL: string
  readonly errorURL: string | null
  readonly newUserURL: string | null
  readonly requestSignUp: boolean
}
