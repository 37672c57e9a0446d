/**
 * @module
 * The types that refer to one another: the options hold plugins, a plugin's
 * hooks and `init` receive the `AuthContext`, the `AuthContext` holds the
 * options and plugins, and an endpoint's middlewares receive the
 * `EndpointContext`. Such a knot needs one file; split over several it is an
 * import cycle. Everything here imports only downwards (storage, database,
 * crypto, cookies, the option groups), and the modules that use these types
 * (`options.ts`, `plugins/types.ts`, `endpoint/context.ts`,
 * `endpoint/define-endpoint.ts`) re-export them from here.
 */
import type { CookieJar, CookieNames } from '../cookies/cookie-jar.js'
import type { Clock } from '../crypto/clock.js'
import type { Secrets } from '../crypto/keys.js'
import type { Random } from '../crypto/random.js'
import type { Adapter, AdapterFactory, Row } from '../db/adapter.js'
import type { FieldDefinition, Schema as DatabaseSchema, SchemaExtension } from '../db/schema.js'
import type { DatabaseHooks, Store } from '../db/store.js'
import type { ErrorCatalogue } from '../errors/catalogue.js'
import type { Logger, LoggerOptions } from '../logging/logger.js'
import type { PluginRateLimitRule, RateLimitOptions } from '../rate-limit/rules.js'
import type { RateLimitStore } from '../rate-limit/store.js'
import type { SecondaryStorage } from '../storage/types.js'
import type { CleanupTarget } from './cleanup.js'
import type { EndpointMetadata, Method, Schema } from './endpoint.js'
import type { AccountOptions, AdvancedOptions, EmailAndPasswordOptions, EmailVerificationOptions, NamingOptions, SessionOptions, UserOptions } from './options.js'
import type { SessionWithUser, User } from './rows.js'
import type { SigningKeyNeeds } from './signing.js'
import type { CachePayloadMemo, PasswordService } from './services.js'
import type { ConfiguredProvider, SocialProvidersOptions } from './social.js'

/**
 * What `createAuth` accepts. Everything has a secure default; only `baseURL`
 * is required (the server never learns its own address from a request's
 * Host header, which a client controls), and in production `secret` too.
 */
export interface GatehouseOptions {
  /** Shown in mails and as the issuer name. */
  readonly appName?: string | undefined
  /** The application's public URL, e.g. `https://app.example.com`. Required. */
  readonly baseURL: string
  /** Where the routes are mounted below `baseURL`. Default `/api/auth`. */
  readonly basePath?: string | undefined
  /**
   * Secret for signing cookies and tokens: at least 32 characters. A list
   * rotates keys: the first signs, all verify. Falls back to the
   * GATEHOUSE_SECRET environment variable, then AUTH_SECRET; required in production.
   */
  readonly secret?: string | readonly string[] | undefined
  /**
   * An adapter factory, or a SQLite file path (the embedded default). Without
   * one, an in-memory database is used and a warning says so; production refuses that.
   */
  readonly database?: AdapterFactory | string | undefined
  readonly secondaryStorage?: SecondaryStorage | undefined
  /** Extra origins allowed to call and to be redirected to: exact origins or `https://*.example.com` patterns. */
  readonly trustedOrigins?: readonly string[] | undefined
  readonly plugins?: readonly GatehousePlugin[] | undefined
  readonly rateLimit?: RateLimitOptions | undefined
  readonly hooks?: { readonly before?: readonly BeforeHook[] | undefined; readonly after?: readonly AfterHook[] | undefined } | undefined
  readonly databaseHooks?: DatabaseHooks | undefined
  /** Application tables, or fields added to existing ones. */
  readonly schema?: SchemaExtension | undefined
  /**
   * Table and column names the application's way: plural tables, snake_case,
   * any name per model and field (docs/adapters.md#naming-tables-and-columns).
   * Default: the model and field names as they are.
   */
  readonly naming?: NamingOptions | undefined
  readonly user?: UserOptions | undefined
  readonly emailAndPassword?: EmailAndPasswordOptions | undefined
  readonly emailVerification?: EmailVerificationOptions | undefined
  readonly account?: AccountOptions | undefined
  /** Social sign-in providers by id (docs/social.md#configuration): `{ github: { clientId, clientSecret } }`. */
  readonly socialProviders?: SocialProvidersOptions | undefined
  readonly session?: (SessionOptions & { readonly additionalFields?: Readonly<Record<string, FieldDefinition>> | undefined }) | undefined
  readonly advanced?: AdvancedOptions | undefined
  /**
   * `Authorization: Bearer <session token>` authenticates like the session cookie, for clients
   * without cookies (mobile apps, CLIs); every answer that sets the session cookie also carries
   * it in `set-auth-token` (docs/sessions.md#bearer-tokens). Default off.
   */
  readonly bearer?: boolean | undefined
  /**
   * `GET /one-time-token/generate` and `POST /one-time-token/verify`: a single-use, short-lived
   * token that hands the caller's session to another origin (docs/sessions.md#one-time-tokens). Default off.
   */
  readonly oneTimeToken?: boolean | OneTimeTokenOptions | undefined
  readonly logger?: LoggerOptions | Logger | undefined
  /** Defaults to `process.env.NODE_ENV === 'production'`. */
  readonly production?: boolean | undefined
  /** Injected time and randomness, for tests. */
  readonly clock?: Clock | undefined
  readonly random?: Random | undefined
}

/** Options of the one-time tokens (docs/sessions.md#one-time-tokens). */
export interface OneTimeTokenOptions {
  /** Seconds a token lives. Default 180, at most 3600. */
  readonly expiresIn?: number | undefined
  /** Only `auth.api.generateOneTimeToken` makes tokens; the route answers 400 to requests. */
  readonly disableClientRequest?: boolean | undefined
}

/**
 * How the session of a call was established: the session cookie, an
 * `Authorization: Bearer` session token, or a plugin's own credential
 * (`'api-key'`) (docs/sessions.md#credentials-other-than-the-cookie).
 */
export type SessionSource = 'cookie' | 'bearer' | (string & {})

/**
 * What a plugin's `authenticate` answers for a request carrying its
 * credential: the session the call runs as, and what that credential may do.
 */
export interface RequestCredential {
  readonly session: SessionWithUser
  /** The plugin's name for the credential, e.g. `'api-key'`. */
  readonly source: string
  /**
   * False: the credential never changes credentials (password, email, second
   * factor, passkeys, API keys, sessions, linked accounts, the account itself);
   * routes that do answer 403 CREDENTIAL_NOT_ALLOWED. A leaked API key must
   * not let its holder lock the owner out (docs/sessions.md#credentials-other-than-the-cookie).
   */
  readonly mayChangeCredentials: boolean
}

/**
 * The plugin contract: a plugin is a plain object. It may add tables and
 * fields, endpoints, request hooks, database hooks, rate-limit rules, an
 * error catalogue and an `init` step run once the database is ready.
 */
export interface GatehousePlugin {
  /** Unique among the plugins of one `createAuth`. */
  readonly id: string
  readonly schema?: SchemaExtension
  readonly endpoints?: EndpointMap
  readonly hooks?: { readonly before?: readonly BeforeHook[]; readonly after?: readonly AfterHook[] }
  readonly databaseHooks?: DatabaseHooks
  readonly rateLimit?: readonly PluginRateLimitRule[]
  readonly errors?: ErrorCatalogue
  readonly init?: (ctx: AuthContext) => Promise<void> | void
  /**
   * The plugin's expired rows, for `auth.api.cleanup()` (docs/core.md#cleanup):
   * which model, which date field, and the cut-off. Core deletes them in batches.
   */
  readonly cleanup?: (ctx: AuthContext, now: Date) => readonly CleanupTarget[] | Promise<readonly CleanupTarget[]>
  /**
   * Fields added to the get-session answer, next to `session` and `user`
   * (docs/custom-session.md). At most one plugin may set it.
   */
  readonly customizeSession?: (data: SessionWithUser, ctx: EndpointContext) => Promise<SessionExtra> | SessionExtra
  /**
   * Runs once the first factor of a sign-in that answers JSON was checked
   * (the password of POST /sign-in/email, a plugin's username or code:
   * `completeFirstFactor`), before any session row, session cookie or
   * cookie-cache entry exists. An object returned
   * answers the sign-in instead (JSON, 200) and no session is created: the
   * hook of a second factor (docs/two-factor.md#signing-in), which creates the
   * session itself once the second step succeeds. The first plugin to answer wins.
   */
  readonly signInChallenge?: (ctx: EndpointContext, attempt: SignInAttempt) => Promise<SignInChallenge | void> | SignInChallenge | void
  /**
   * User fields the plugin takes from the bodies of POST /sign-up/email and
   * POST /update-user (docs/plugins.md#user-fields-from-requests), e.g. the
   * username plugin's `username`. Returns the fields to write, validated and
   * normalised, or throws an `AuthError` that answers the request; `{}` when
   * the body has none of them. It is asked again when the write meets a
   * unique index, so it can name its own conflict (a username taken by a
   * request that won the race) before core answers the email's.
   */
  readonly userInput?: (ctx: EndpointContext, input: UserInput) => Promise<Row> | Row
  /**
   * Asked before core signs a user in on its own, with neither the password
   * nor a `signInChallenge`: the auto sign-in of a verification link
   * (`emailVerification.autoSignInAfterVerification`). false from any plugin
   * and no session is created: the link only verifies the address, and the
   * user signs in the usual way, second step included
   * (docs/two-factor.md#which-sign-ins-are-challenged).
   */
  readonly mayAutoSignIn?: (ctx: EndpointContext, user: User) => Promise<boolean> | boolean
  /**
   * Runs when core ends everything that signs a user in, for the account's
   * security (docs/plugins.md#when-a-users-credentials-are-revoked): a
   * password reset, a password change that signs out the other sessions,
   * revoke-sessions, a proof of the mailbox into an unverified account, a
   * ban, the user's deletion. It runs inside that change's transaction
   * (`event.db`): a plugin ends what it issued (OAuth grants, pending second
   * factors, trusted devices) in the same commit, and a throw rolls it all back.
   */
  readonly onCredentialsRevoked?: (event: CredentialsRevoked, ctx: AuthContext) => Promise<void> | void
  /**
   * The latest a session may last (docs/plugins.md#a-sessions-hard-end), or
   * null for no limit of this plugin's. Runs when a session is read from
   * secondary storage or the database, never from the cookie cache: a session
   * past the earliest end any plugin answers is ended (deleted, its cookies
   * cleared), and the refresh past `updateAge` never moves its expiry beyond
   * it. The admin plugin ends an impersonation at its own lifetime, or at once
   * when the impersonating admin lost the right to it.
   */
  readonly sessionEnd?: (data: SessionWithUser, ctx: AuthContext) => Promise<Date | null> | Date | null
  /**
   * A credential other than the session cookie, e.g. an API key header
   * (docs/plugins.md#authenticating-requests). Asked once per call, before the
   * bearer header and the cookie, on routes that are not `cookieOnly`.
   * `undefined`: the request carries none of this plugin's credential. A
   * `RequestCredential`: the call runs as its session, and nothing is written
   * back (no cookie is set or refreshed). Throw an `AuthError` when the request
   * carries this plugin's credential and it is refused (invalid, disabled,
   * expired, used up, rate limited): the call never falls back to the cookie.
   */
  readonly authenticate?: (ctx: EndpointContext) => Promise<RequestCredential | undefined> | RequestCredential | undefined
  /**
   * The plugin signs tokens with the shared keys (docs/plugins.md#signing-keys-shared-by-plugins):
   * its algorithms, its longest token lifetime, its rotation interval. The
   * store serves the union; the plugin lists `jwksSchema` and `getJwks`.
   */
  readonly signingKeys?: SigningKeyNeeds
  /**
   * Full names of cookies the plugin sets that sign nobody in and authorize
   * nothing (the last login method's readable hint): the origin check does not
   * count them when it asks whether a POST without Origin or Referer carries
   * credentials (docs/security.md#trusted-origins-securityoriginsts).
   */
  readonly inertCookies?: readonly string[]
}

/** Why core ended a user's sessions (docs/plugins.md#when-a-users-credentials-are-revoked). */
export type CredentialRevocationReason =
  | 'password-reset'
  | 'password-changed'
  | 'sessions-revoked'
  | 'email-proven'
  | 'banned'
  | 'user-deleted'

/** What `onCredentialsRevoked` hears: whose credentials ended, why, and the transaction to write in. */
export interface CredentialsRevoked {
  readonly userId: string
  readonly reason: CredentialRevocationReason
  /** The transaction of the change: write through it, so the revocation commits (or rolls back) with it. */
  readonly db: Store
}

/** A sign-in that passed its first factor: who, whether they asked to be remembered, and by what factor. */
export interface SignInAttempt {
  readonly user: User
  readonly rememberMe: boolean
  /** RFC 8176 values of the first factor: `['pwd']` for a password, `['otp']` or `['sms']` for a code. */
  readonly amr: readonly string[]
}

/** What `userInput` is asked about: the request's body, and the user it updates (null at sign-up). */
export interface UserInput {
  readonly body: Readonly<Record<string, unknown>>
  readonly user: User | null
}

/** What a `signInChallenge` answers the sign-in with: JSON, e.g. `{ twoFactorRedirect: true }`. */
export type SignInChallenge = Readonly<Record<string, unknown>>

/**
 * The fields a plugin adds to the get-session answer: JSON values, under names
 * other than `session` and `user`. A plugin that sets `customizeSession` may
 * declare their type as a `$sessionFields?` property (types only, never set):
 * `auth.api.getSession` and the client's session then carry them.
 */
export type SessionExtra = Readonly<Record<string, unknown>>

/** Runs before the handler: may replace body, query or headers, or throw an `AuthError` to stop the request. */
export interface BeforeHook {
  readonly matcher: (ctx: HookContext) => boolean
  readonly handler: (ctx: HookContext) => Promise<BeforeHookResult | void> | BeforeHookResult | void
}

export interface BeforeHookResult {
  readonly body?: unknown
  readonly query?: unknown
  readonly headers?: Headers
}

/** Runs after the handler: sees what it returned and may replace it (or throw). */
export interface AfterHook {
  readonly matcher: (ctx: HookContext) => boolean
  readonly handler: (ctx: HookContext & { readonly returned: unknown }) => Promise<AfterHookResult | void> | AfterHookResult | void
}

export interface AfterHookResult {
  readonly returned: unknown
}

/**
 * Built once per `createAuth`: database, clock, randomness, secrets, logger,
 * options. Handlers are pure functions of it and never read `process.env` or
 * the wall clock themselves.
 */
export interface AuthContext {
  readonly options: GatehouseOptions
  /** Where the auth routes live: origin plus base path, e.g. `https://app.test/api/auth`. */
  readonly baseURL: string
  readonly origin: string
  readonly basePath: string
  readonly production: boolean
  readonly schema: DatabaseSchema
  readonly adapter: Adapter
  readonly db: Store
  readonly secondaryStorage: SecondaryStorage | undefined
  readonly clock: Clock
  readonly random: Random
  readonly secrets: Secrets
  readonly logger: Logger
  readonly cookieNames: CookieNames
  /** The cookie cache texts this instance verified recently (session/cache-payload.ts). */
  readonly cookieCacheMemo: CachePayloadMemo
  readonly plugins: readonly GatehousePlugin[]
  /** Hashing, timing-safe verification and the length policy for passwords. */
  readonly passwords: PasswordService
  /** The configured social providers by id, built at start-up (docs/social.md#configuration). */
  readonly socialProviders: ReadonlyMap<string, ConfiguredProvider>
  /** True for the base URL's origin and every configured trusted origin or pattern (docs/security.md#trusted-origins-securityoriginsts). */
  isTrustedOrigin(origin: string): boolean
  /** A 32-character id from the CSPRNG, or the configured `advanced.generateId`. */
  generateId(model: string): string
  /**
   * The counter store core's rate limiter counts in (`rateLimit.storage`), for a
   * plugin's own limits: counted there, a budget is shared by every process
   * exactly when core's are (docs/rate-limits.md#where-counters-live).
   */
  readonly rateLimitStore: RateLimitStore
}

/** What one request or server-side call sees: the `AuthContext` plus the call's input, cookies and response headers. */
export interface EndpointContext<Body = unknown, Query = unknown> {
  readonly body: Body
  readonly query: Query
  /** Path parameters, e.g. `{ token }` for `/reset-password/:token`. */
  readonly params: Readonly<Record<string, string>>
  readonly headers: Headers
  /** The incoming request; absent for `api` calls made without one. */
  readonly request: Request | undefined
  readonly method: Method
  /** The route path below the base path, e.g. `/sign-in/email`. */
  readonly path: string
  /** True for `auth.api.*` calls, which skip the origin check and rate limits. */
  readonly isServerCall: boolean
  /** The client's address from trusted headers, already validated; null when unknown. */
  readonly ip: string | null
  readonly auth: AuthContext
  readonly db: Store
  readonly clock: Clock
  readonly random: Random
  readonly secrets: Secrets
  readonly logger: Logger
  readonly options: GatehouseOptions
  readonly cookies: CookieJar
  /** Headers added to the response (Set-Cookie is handled by `cookies`). */
  readonly responseHeaders: Headers
  /** The route's metadata (`cookieOnly`, `cors`, ...); absent when a context is built by hand. */
  readonly metadata?: EndpointMetadata | undefined
  /** A 302 (or given status) to `url`; return it from the handler. */
  redirect(url: string, status?: 301 | 302 | 303 | 307 | 308): Response
}

/** What request hooks see: the call before (or after) its handler ran. */
export interface HookContext {
  readonly path: string
  readonly method: Method
  readonly body: unknown
  readonly query: unknown
  readonly params: Readonly<Record<string, string>>
  readonly headers: Headers
  readonly request: Request | undefined
  readonly isServerCall: boolean
  readonly auth: AuthContext
  readonly cookies: CookieJar
  readonly responseHeaders: Headers
}

/** What a middleware adds to the handler's context (a session, say). */
export type Middleware<Out extends object = object> = (ctx: EndpointContext) => Promise<Out> | Out

/** An endpoint of any input and output, as plugins and the router hold them. */
export type AnyEndpoint = {
  readonly kind: 'endpoint'
  readonly method: Method | readonly Method[]
  readonly path: string
  readonly body?: Schema | undefined
  readonly query?: Schema | undefined
  readonly use?: readonly Middleware[] | undefined
  readonly serverOnly?: boolean | undefined
  readonly metadata?: EndpointMetadata | undefined
  // Parameter bivariance lets endpoints with narrower contexts be stored here.
  handler(ctx: never): unknown
}

export type EndpointMap = Readonly<Record<string, AnyEndpoint>>
