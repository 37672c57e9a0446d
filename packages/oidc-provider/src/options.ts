/**
 * @module
 * What `oidcProvider(options)` accepts, and the defaults of docs/oidc-provider.md
 * "Options": codes live 600 s, access tokens 3600 s, refresh tokens 7 days,
 * PKCE (S256) required of public clients (of every client with
 * `requirePKCE`), either secret method for confidential clients (only the
 * registered one with `strictClientAuthMethod`), registration only with a
 * session. Options are resolved once, when the plugin is made; routes read
 * the resolved object at run time.
 */
import type { User } from '@gatehouse/core'

type MaybePromise<T> = T | Promise<T>

export type SigningAlgorithm = 'RS256' | 'ES256' | 'EdDSA'

/** `web` clients are confidential (they hold a secret); the others are public and need PKCE. */
export type ClientType = 'web' | 'native' | 'user-agent-based' | 'public'

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post'

/** A first-party client configured in code rather than stored (docs/oidc-provider.md#trusted-clients). */
export interface TrustedClient {
  readonly clientId: string
  /** Required for `web` clients; compared in constant time. */
  readonly clientSecret?: string | undefined
  readonly name: string
  readonly icon?: string | undefined
  readonly redirectURLs: readonly string[]
  readonly postLogoutRedirectURLs?: readonly string[] | undefined
  readonly type: ClientType
  /** Skip the consent page for this client. */
  readonly skipConsent?: boolean | undefined
  readonly metadata?: Record<string, unknown> | undefined
}

/** The registered client as routes and `api` see it (docs/oidc-provider.md#clients). */
export interface OAuthClient {
  readonly clientId: string
  readonly name: string
  readonly icon: string | null
  readonly redirectURLs: readonly string[]
  readonly postLogoutRedirectURLs: readonly string[]
  readonly type: ClientType
  readonly disabled: boolean
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod
  readonly grantTypes: readonly string[]
  readonly responseTypes: readonly string[]
  readonly scope: string | null
  readonly metadata: Record<string, unknown> | null
  readonly userId: string | null
  readonly skipConsent: boolean
  /** True for clients from `trustedClients`, which are not stored. */
  readonly trusted: boolean
  /**
   * Registered by the operator (`trustedClients`, `api.oauth2CreateClient`,
   * a server-side `api.oauth2Register`, or marked so by `oauth2UpdateClient`),
   * as opposed to self-registered over HTTP at /oauth2/register: an
   * unverified client's name and URIs are its own claim, its authorization
   * errors are shown rather than redirected, and the consent page says so
   * (docs/oidc-provider.md#verified-and-self-registered-clients).
   */
  readonly verified: boolean
  readonly createdAt: Date | null
  readonly updatedAt: Date | null
}

/** One authentication context class and the sign-in methods (RFC 8176 `amr` values) it requires. */
export interface AcrValue {
  readonly value: string
  readonly amr: readonly string[]
}

/** The fields of the discovery document an application may override. */
export type DiscoveryMetadata = Record<string, unknown>

export interface OidcProviderOptions {
  /** Where users sign in; the authorization request is kept in a cookie meanwhile. */
  readonly loginPage: string
  /** Where users grant or deny access; receives `client_id` and `scope`. */
  readonly consentPage?: string | undefined
  /** Scopes beyond openid, profile, email and offline_access. */
  readonly scopes?: readonly string[] | undefined
  /** Scope used when an authorization request names none. Default "openid". */
  readonly defaultScope?: string | undefined
  /**
   * Require PKCE of confidential clients too. Default false: public clients
   * always need it, and a confidential client that sends a challenge is held
   * to it (docs/oidc-provider.md#pkce).
   */
  readonly requirePKCE?: boolean | undefined
  /** Accept `code_challenge_method=plain`. Default false (S256 only). */
  readonly allowPlainCodeChallengeMethod?: boolean | undefined
  /** Let anyone register clients, without a session. Default false. */
  readonly allowDynamicClientRegistration?: boolean | undefined
  /**
   * Accept from a stored confidential client only the secret method it
   * registered (`client_secret_basic` or `client_secret_post`). Default false:
   * either method, as RFC 6749 §2.3.1 allows (docs/oidc-provider.md#client-authentication).
   */
  readonly strictClientAuthMethod?: boolean | undefined
  readonly trustedClients?: readonly TrustedClient[] | undefined
  /** Seconds an authorization code is valid. Default 600. */
  readonly codeExpiresIn?: number | undefined
  /** Seconds an access token is valid. Default 3600. */
  readonly accessTokenExpiresIn?: number | undefined
  /** Seconds a refresh token is valid. Default 604800 (7 days). */
  readonly refreshTokenExpiresIn?: number | undefined
  /**
   * Seconds a grant's refresh tokens may be used, counted from the
   * authorization the user gave (docs/oidc-provider.md#refresh-token-rotation).
   * Rotation never extends it: after it the client sends the user to
   * authorize again. Default 2592000 (30 days).
   */
  readonly refreshTokenMaxAge?: number | undefined
  readonly signing?: {
    /** Algorithm of ID Tokens. Default RS256. */
    readonly algorithm?: SigningAlgorithm | undefined
    /** Further algorithms whose keys are kept and published. */
    readonly additionalAlgorithms?: readonly SigningAlgorithm[] | undefined
    /** Seconds between key rotations. */
    readonly rotationInterval?: number | undefined
  } | undefined
  /**
   * Seconds after a refresh token's rotation during which the same client
   * presenting it again gets another pair of the same family instead of the
   * family's revocation: two tabs or a retry after a timeout refreshing at
   * once. Default 10; 0 makes every reuse revoke the family
   * (docs/oidc-provider.md#refresh-token-rotation).
   */
  readonly refreshTokenReuseInterval?: number | undefined
  /**
   * Authentication context classes (the ID Token's `acr`), strongest first:
   * each names the `amr` methods a sign-in needs for it, e.g.
   * `[{ value: 'urn:example:mfa', amr: ['mfa'] }, { value: 'urn:example:pwd', amr: ['pwd'] }]`.
   * The ID Token carries the first requested `acr_values` entry the sign-in
   * satisfies, else the first configured one it satisfies, else no `acr`
   * (docs/oidc-provider.md#amr-and-acr).
   */
  readonly acrValues?: readonly AcrValue[] | undefined
  /** Extra claims for the ID Token and userinfo, given the granted scopes. */
  readonly getAdditionalUserInfoClaims?:
    | ((user: User, scopes: readonly string[], client: OAuthClient) => MaybePromise<Record<string, unknown>>)
    | undefined
  /** Overrides of the discovery document's fields. */
  readonly metadata?: DiscoveryMetadata | undefined
}

export interface ResolvedOidcOptions {
  readonly loginPage: string
  readonly consentPage: string | undefined
  /** Every supported scope: the four standard ones plus the configured extras. */
  readonly scopes: readonly string[]
  readonly defaultScope: string
  readonly requirePKCE: boolean
  readonly allowPlainCodeChallengeMethod: boolean
  readonly allowDynamicClientRegistration: boolean
  readonly strictClientAuthMethod: boolean
  readonly trustedClients: readonly TrustedClient[]
  readonly codeExpiresIn: number
  readonly accessTokenExpiresIn: number
  readonly refreshTokenExpiresIn: number
  readonly refreshTokenMaxAge: number
  readonly refreshTokenReuseInterval: number
  readonly acrValues: readonly AcrValue[]
  readonly signing: {
    readonly algorithm: SigningAlgorithm
    readonly additionalAlgorithms: readonly SigningAlgorithm[]
    readonly rotationInterval: number
  }
  readonly getAdditionalUserInfoClaims: OidcProviderOptions['getAdditionalUserInfoClaims']
  readonly metadata: DiscoveryMetadata | undefined
}

export const STANDARD_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const
export const DEFAULT_CODE_EXPIRES_IN = 600
export const DEFAULT_ACCESS_TOKEN_EXPIRES_IN = 3600
export const DEFAULT_REFRESH_TOKEN_EXPIRES_IN = 604_800
/** Thirty days: the absolute lifetime of a grant's refresh tokens. */
export const DEFAULT_REFRESH_TOKEN_MAX_AGE = 2_592_000
/** Ten seconds: how long a just-rotated refresh token may be presented again by its client. */
export const DEFAULT_REFRESH_TOKEN_REUSE_INTERVAL = 0
/** Max age of the login-prompt and consent cookies, in seconds. */
export const PENDING_REQUEST_MAX_AGE = 600
/** Thirty days: keys older than this are replaced, their public halves kept until their tokens expire. */
export const DEFAULT_ROTATION_INTERVAL = 2_592_000

/**
 * @example
 * resolveOidcOptions({ loginPage: '/login' }).scopes // ['openid', 'profile', 'email', 'offline_access']
 */
export function resolveOidcOptions(options: OidcProviderOptions): ResolvedOidcOptions {
  const extras = (options.scopes ?? []).filter((scope) => !(STANDARD_SCOPES as readonly string[]).includes(scope))
  return {
    loginPage: options.loginPage,
    consentPage: options.consentPage,
    scopes: [...STANDARD_SCOPES, ...new Set(extras)],
    defaultScope: options.defaultScope ?? 'openid',
    requirePKCE: options.requirePKCE ?? false,
    allowPlainCodeChallengeMethod: options.allowPlainCodeChallengeMethod ?? false,
    allowDynamicClientRegistration: options.allowDynamicClientRegistration ?? false,
    strictClientAuthMethod: options.strictClientAuthMethod ?? false,
    trustedClients: options.trustedClients ?? [],
    codeExpiresIn: options.codeExpiresIn ?? DEFAULT_CODE_EXPIRES_IN,
    accessTokenExpiresIn: options.accessTokenExpiresIn ?? DEFAULT_ACCESS_TOKEN_EXPIRES_IN,
    refreshTokenExpiresIn: options.refreshTokenExpiresIn ?? DEFAULT_REFRESH_TOKEN_EXPIRES_IN,
    refreshTokenMaxAge: options.refreshTokenMaxAge ?? DEFAULT_REFRESH_TOKEN_MAX_AGE,
    refreshTokenReuseInterval: Math.max(0, options.refreshTokenReuseInterval ?? DEFAULT_REFRESH_TOKEN_REUSE_INTERVAL),
    acrValues: options.acrValues ?? [],
    signing: {
      algorithm: options.signing?.algorithm ?? 'RS256',
      additionalAlgorithms: options.signing?.additionalAlgorithms ?? [],
      rotationInterval: options.signing?.rotationInterval ?? DEFAULT_ROTATION_INTERVAL,
    },
    getAdditionalUserInfoClaims: options.getAdditionalUserInfoClaims,
    metadata: options.metadata,
  }
}
