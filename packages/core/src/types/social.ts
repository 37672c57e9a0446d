/**
 * @module
 * Social providers as data (docs/social.md#writing-a-provider). A provider is
 * a `defineProvider({ id, create(config) })` whose `create` turns the
 * application's config for it into a {@link ProviderDefinition}: the
 * endpoints, scopes and protocol switches of the provider, plus the one
 * function every provider has its own version of, `getUserInfo`. Everything
 * else (state, PKCE, nonce, code exchange, refresh, ID Token validation,
 * timeouts) is shared and lives in `social/protocol.ts`, on oauth4webapi.
 *
 * It names only the user row type, so it sits in `types/` with the contract,
 * which names the configured providers, below the social sign-in code that
 * runs them (docs/core.md#layout).
 */
import type { User } from './rows.js'

/** How the client authenticates at the token endpoint (RFC 6749 §2.3.1). */
export type TokenAuthMethod = 'client_secret_basic' | 'client_secret_post'

/** Where the provider sends the authorization response: the query of a GET, or a cross-site form POST (Apple). */
export type ResponseMode = 'query' | 'form_post'

/** The tokens of one account, as the token endpoint (or an ID-token sign-in) gave them. */
export interface ProviderTokens {
  readonly accessToken: string | null
  readonly refreshToken: string | null
  readonly idToken: string | null
  readonly tokenType: string | null
  readonly accessTokenExpiresAt: Date | null
  readonly refreshTokenExpiresAt: Date | null
  /** Granted scopes, when the provider says (else the requested ones). */
  readonly scopes: readonly string[]
}

/** What a provider knows of the person, mapped to user fields (docs/social.md#user-fields). */
export interface ProviderUserInfo {
  /** The provider's stable id of the account (`sub`, GitHub's numeric id...), stored as `account.accountId`. */
  readonly id: string
  /** Null when the provider gave none: the callback then fails with `email_not_found`. */
  readonly email: string | null
  /** True only when the provider vouches for the address (a verified flag or claim). Decides implicit linking. */
  readonly emailVerified: boolean
  readonly name: string
  readonly image: string | null
  /** The provider's raw profile (what `account-info` returns as `data`, and what `mapProfileToUser` sees). */
  readonly data: Readonly<Record<string, unknown>>
}

/** What `getUserInfo` and `clientSecret` may use: the shared, time-limited fetch and the validated ID Token. */
export interface ProviderRequestContext {
  /**
   * `fetch` with the provider timeout (AbortSignal.timeout) and `redirect: 'manual'`. Use it for every
   * call to the provider, so a provider that is down fails the sign-in with an error redirect, not a hang.
   */
  fetch(url: string, init?: RequestInit): Promise<Response>
  /** GETs `url` with the bearer token (and `headers`) and returns the parsed JSON; throws on a non-2xx answer or invalid JSON. */
  fetchJson(url: string, accessToken: string, headers?: Record<string, string>): Promise<unknown>
  /**
   * The ID Token's claims, already validated (signature or TLS-direct token response, `iss`, `aud`,
   * `exp`, `nonce`), when the provider issued one; else null.
   */
  readonly idTokenClaims: Readonly<Record<string, unknown>> | null
  /** The UserInfo endpoint, as configured or discovered; null when the provider has none. */
  readonly userInfoEndpoint: string | null
  /**
   * The authorization response's parameters (Apple sends the name once, as `user`, in the form post);
   * null outside a callback (ID-token sign-in, account-info).
   */
  readonly callbackParams: URLSearchParams | null
  /** The current time, from the auth's clock. */
  now(): Date
}

/**
 * One configured provider, ready to use. Built by {@link ProviderFactory.create}
 * from the application's config. Only `getUserInfo` is code; the rest is data.
 */
export interface ProviderDefinition {
  /** The id in `socialProviders` and in the callback path `{baseURL}/callback/{id}`. */
  readonly id: string
  /** Shown in docs and buttons: "GitHub". */
  readonly name: string
  readonly clientId: string
  /** The client secret; absent for providers that mint one per request (`clientSecret` below). */
  readonly clientSecretValue?: string
  /** OAuth endpoints. Omit them only when `issuer` is set and `discovery` is true. */
  readonly authorizationEndpoint?: string
  readonly tokenEndpoint?: string
  readonly userInfoEndpoint?: string
  /**
   * The OpenID Connect issuer, for providers that issue ID Tokens: their `iss` must equal it.
   * Required for ID-token sign-in and for `nonce` in the authorization request.
   */
  readonly issuer?: string
  /** The issuer's key set, for verifying ID Tokens sent to `POST /sign-in/social`. */
  readonly jwksUri?: string
  /** Read the endpoints and key set from `{issuer}/.well-known/openid-configuration` (generic OIDC). */
  readonly discovery?: boolean
  /** Default `client_secret_basic`. */
  readonly tokenAuthMethod?: TokenAuthMethod
  /** The scopes always requested (the application's `scopes` are added unless `disableDefaultScope`). */
  readonly scopes: readonly string[]
  /** How scopes are joined in the authorization URL. Default one space (RFC 6749 §3.3). */
  readonly scopeSeparator?: string
  /** Sends a PKCE S256 challenge (RFC 7636). Default true; false only for providers that reject it. */
  readonly pkce?: boolean
  /** Default `query`. */
  readonly responseMode?: ResponseMode
  /** Extra authorization parameters (Google's `access_type=offline`, `include_granted_scopes`...). */
  readonly authorizationParams?: Readonly<Record<string, string>>
  /** Accepted ID Token signature algorithms. Default `['RS256']` plus what discovery advertises. */
  readonly idTokenAlgorithms?: readonly string[]
  /** Issuers accepted on ID Tokens sent to `POST /sign-in/social`. Default `[issuer]` (Google also uses `accounts.google.com`). */
  readonly idTokenIssuers?: readonly string[]
  /** Audiences accepted on those ID Tokens. Default `[clientId]` (Apple adds the app's bundle id). */
  readonly idTokenAudiences?: readonly string[]
  /** Whether the provider hands out refresh tokens that `get-access-token` and `refresh-token` may use. Default true. */
  readonly supportsRefresh?: boolean
  /**
   * Repairs a non-standard token response before it is checked (a missing `token_type`, a
   * number sent as a string, tokens nested under `data`). Called for code exchange and refresh.
   */
  normalizeTokenResponse?(body: Record<string, unknown>): Record<string, unknown>
  /** Last changes to the authorization URL (a provider that wants `client_key` instead of `client_id`). */
  customizeAuthorizationUrl?(url: URL): void
  /**
   * Extra form parameters of the token requests (VK ID's `device_id` from the callback, TikTok's
   * `client_key`). `ctx.callbackParams` is null on a refresh.
   */
  tokenRequestParams?(ctx: ProviderRequestContext): Readonly<Record<string, string>>
  /** Mints the client secret per request (Apple's ES256 client-secret JWT). Wins over `clientSecretValue`. */
  clientSecret?(ctx: ProviderRequestContext): Promise<string>
  /**
   * Maps the provider's answer to user fields. `tokens` holds the fresh tokens; `ctx.idTokenClaims`
   * the validated ID Token claims when there is one. Return null (or throw) when the provider gave no
   * usable profile: the sign-in fails with `unable_to_get_user_info`.
   */
  getUserInfo(tokens: ProviderTokens, ctx: ProviderRequestContext): Promise<ProviderUserInfo | null>
}

/** User fields a provider profile may set on a user created by social sign-up. */
export type MappedUserFields = Partial<Pick<User, 'name' | 'image' | 'emailVerified'>> & Readonly<Record<string, unknown>>

/**
 * What the application configures for one named provider, under `socialProviders.<id>`.
 *
 * @example
 * socialProviders: { github: { clientId: process.env.GITHUB_CLIENT_ID!, clientSecret: process.env.GITHUB_CLIENT_SECRET! } }
 */
export interface SocialProviderConfig {
  readonly clientId: string
  readonly clientSecret?: string | undefined
  /** Added to the provider's default scopes. */
  readonly scopes?: readonly string[] | undefined
  /** Request only `scopes`, not the provider's defaults. */
  readonly disableDefaultScope?: boolean | undefined
  /** The redirect URI registered at the provider. Default `{baseURL}/callback/{id}`. */
  readonly redirectURI?: string | undefined
  /** Never create a user from this provider: unknown people get `signup_disabled`. */
  readonly disableSignUp?: boolean | undefined
  /** Create a user only when the sign-in asked for it (`requestSignUp: true`). */
  readonly disableImplicitSignUp?: boolean | undefined
  /** Refuse `POST /sign-in/social` with an `idToken` for this provider. */
  readonly disableIdTokenSignIn?: boolean | undefined
  /** Extra authorization parameters (`prompt`, `hd`, `login_hint`...), added to the provider's own. */
  readonly authorizationParams?: Readonly<Record<string, string>> | undefined
  /** Fields for a user created by sign-up through this provider, from its profile. */
  readonly mapProfileToUser?: ((profile: ProviderUserInfo) => MappedUserFields | Promise<MappedUserFields>) | undefined
}

/**
 * A provider module: its id and how to build a {@link ProviderDefinition} from the config.
 * `C` is the provider's config type (the base plus its own fields, such as Apple's key).
 */
export interface ProviderFactory<C extends SocialProviderConfig = SocialProviderConfig> {
  readonly id: string
  readonly name: string
  create(config: C, env: ProviderEnvironment): ProviderDefinition
}

/** What a factory knows of the auth instance when it builds a provider. */
export interface ProviderEnvironment {
  /** The callback URL the provider must redirect to: `{baseURL}/callback/{id}` unless configured. */
  readonly redirectURI: string
}

/** Narrows parsed JSON to a plain object, for reading profiles. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A non-empty string claim or field, else `fallback`. */
export function stringField<T>(value: unknown, fallback: T): string | T {
  return typeof value === 'string' && value !== '' ? value : fallback
}

/**
 * Declares a provider module; the identity function keeps its config type.
 *
 * @example
 * export const github = defineProvider({ id: 'github', name: 'GitHub', create: (config) => ({ ... }) })
 */
export function defineProvider<C extends SocialProviderConfig = SocialProviderConfig>(factory: ProviderFactory<C>): ProviderFactory<C> {
  return factory
}

/** The config type of a provider module. */
export type ConfigOf<F> = F extends ProviderFactory<infer C> ? C : never

/**
 * Any OpenID Connect provider, found by discovery from its issuer (docs/social.md#generic-providers).
 *
 * @example
 * socialProviders: { oidc: { type: 'oidc', issuer: 'https://id.example.com', clientId: '…', clientSecret: '…' } }
 */
export interface GenericOidcConfig extends SocialProviderConfig {
  readonly type: 'oidc'
  /** The issuer identifier; its discovery document is `{issuer}/.well-known/openid-configuration`. */
  readonly issuer: string
  readonly name?: string | undefined
  /** Default `['openid', 'profile', 'email']`. */
  readonly defaultScopes?: readonly string[] | undefined
  readonly tokenAuthMethod?: TokenAuthMethod | undefined
  /** Default true. */
  readonly pkce?: boolean | undefined
  readonly responseMode?: ResponseMode | undefined
  /** Maps claims (ID Token merged with UserInfo) to user fields; the default reads the standard claims. */
  readonly mapClaims?: ((claims: Readonly<Record<string, unknown>>) => ProviderUserInfo | null) | undefined
}

/**
 * Any plain OAuth 2.0 provider, configured by its endpoints (docs/social.md#generic-providers).
 * Give `getUserInfo`, or `userInfoEndpoint` with `mapProfile`.
 */
export interface GenericOAuthConfig extends SocialProviderConfig {
  readonly type: 'oauth2'
  readonly name?: string | undefined
  readonly authorizationEndpoint: string
  readonly tokenEndpoint: string
  readonly userInfoEndpoint?: string | undefined
  readonly defaultScopes?: readonly string[] | undefined
  readonly scopeSeparator?: string | undefined
  readonly tokenAuthMethod?: TokenAuthMethod | undefined
  /** Default true. */
  readonly pkce?: boolean | undefined
  readonly supportsRefresh?: boolean | undefined
  /** Maps the JSON of `userInfoEndpoint` to user fields. */
  readonly mapProfile?: ((profile: Readonly<Record<string, unknown>>) => ProviderUserInfo | null) | undefined
  /** Full control over reading the profile; wins over `userInfoEndpoint` + `mapProfile`. */
  readonly getUserInfo?: ((tokens: ProviderTokens, ctx: ProviderRequestContext) => Promise<ProviderUserInfo | null>) | undefined
}

export type GenericProviderConfig = GenericOidcConfig | GenericOAuthConfig

/** Apple signs in with a client-secret JWT made from the team's key (docs/social.md#apple). */
export interface AppleProviderConfig extends Omit<SocialProviderConfig, 'clientSecret'> {
  /** A ready client-secret JWT; or give `teamId`, `keyId` and `privateKey` and one is minted per request. */
  readonly clientSecret?: string | undefined
  readonly teamId?: string | undefined
  readonly keyId?: string | undefined
  /** The PKCS#8 PEM of the ES256 key from Apple's developer console. */
  readonly privateKey?: string | undefined
  /** The iOS app's bundle id: ID Tokens from the native app carry it as `aud`. */
  readonly appBundleIdentifier?: string | undefined
}

export interface MicrosoftProviderConfig extends SocialProviderConfig {
  /** `common` (default), `organizations`, `consumers` or a tenant id. */
  readonly tenantId?: string | undefined
}

export interface GitlabProviderConfig extends SocialProviderConfig {
  /** A self-hosted GitLab's URL. Default `https://gitlab.com`. */
  readonly issuer?: string | undefined
}

/**
 * The config type of each named provider. A provider with fields of its own
 * (Apple's key, Microsoft's tenant) names its interface here.
 */
export interface NamedProviderConfigs {
  apple: AppleProviderConfig
  discord: SocialProviderConfig
  facebook: SocialProviderConfig
  github: SocialProviderConfig
  microsoft: MicrosoftProviderConfig
  google: SocialProviderConfig
  huggingface: SocialProviderConfig
  spotify: SocialProviderConfig
  twitch: SocialProviderConfig
  twitter: SocialProviderConfig
  dropbox: SocialProviderConfig
  kick: SocialProviderConfig
  linkedin: SocialProviderConfig
  gitlab: GitlabProviderConfig
  tiktok: SocialProviderConfig
  reddit: SocialProviderConfig
  roblox: SocialProviderConfig
  vk: SocialProviderConfig
  zoom: SocialProviderConfig
}

export type NamedProviderId = keyof NamedProviderConfigs

/** A provider as the routes use it: its definition, the application's config for it and its redirect URI. */
export interface ConfiguredProvider {
  readonly id: string
  readonly definition: ProviderDefinition
  readonly config: SocialProviderConfig | GenericProviderConfig
  readonly redirectURI: string
}

/**
 * `socialProviders`: a named provider's id with its config, or any other id
 * with a generic config (`type: 'oidc'` or `type: 'oauth2'`).
 *
 * @example
 * socialProviders: {
 *   github: { clientId: '…', clientSecret: '…' },
 *   acme: { type: 'oidc', issuer: 'https://id.acme.test', clientId: '…', clientSecret: '…' },
 * }
 */
export type SocialProvidersOptions = { readonly [K in NamedProviderId]?: NamedProviderConfigs[K] | GenericProviderConfig } & {
  readonly [id: string]: SocialProviderConfig | AppleProviderConfig | GenericProviderConfig | undefined
}
