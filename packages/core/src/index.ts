export { createAuth } from './auth/create-auth.js'
export type { Auth, AuthEndpoints, CustomSessionFields, PluginEndpoints, SessionFields, UserFields } from './auth/create-auth.js'
export type { CoreEndpoints } from './routes/index.js'
export type { AdvancedOptions, GatehouseOptions } from './options.js'

export { defineEndpoint, withMetadata } from './endpoint/define-endpoint.js'
export type {
  AnyEndpoint,
  Endpoint,
  EndpointBody,
  EndpointDefinition,
  EndpointMap,
  EndpointMetadata,
  EndpointQuery,
  EndpointResult,
  Method,
  Middleware,
} from './endpoint/define-endpoint.js'
export type { AuthContext, EndpointContext, HookContext } from './endpoint/context.js'
export type { CookieJar, CookieNames } from './cookies/cookie-jar.js'
export type { Api, ApiArgs, ApiMethod, WithFields } from './endpoint/api.js'
export type { HeadersInput, NodeHeaders } from './endpoint/headers-input.js'
export { createLogger } from './logging/logger.js'
export type { Logger, LoggerOptions, LogLevel } from './logging/logger.js'

export { AuthError, CoreErrors, defineErrors, HttpStatus, isAuthError } from './errors/index.js'
export type { AuthErrorOptions, CoreErrorCode, ErrorCatalogue, ErrorDefinition } from './errors/index.js'

export { definePlugin } from './plugins/types.js'
export type { AfterHook, BeforeHook, CredentialRevocationReason, CredentialsRevoked, GatehousePlugin, OneTimeTokenOptions, PluginRateLimitRule, RequestCredential, SessionExtra, SessionSource, SignInAttempt, SignInChallenge, UserInput } from './plugins/types.js'

export { columnName, coreSchema, mergeSchemas, tableName } from './db/schema.js'
export { applyNaming } from './db/naming.js'
export type { ModelNaming, NamingOptions } from './db/naming.js'
export type { CompositeUnique, FieldDefinition, FieldType, ModelDefinition, Schema, SchemaExtension } from './db/schema.js'
export { DatabaseError, isUniqueViolation } from './db/adapter.js'
// For adapter authors (docs/adapters.md#writing-an-adapter): the checks, conversions and error mapping the built-in adapters run.
export { toWhere } from './db/adapter.js'
export { validateWhere } from './db/where.js'
export { resolveJoins } from './db/join.js'
export type { ResolvedJoin } from './db/join.js'
export { fromColumnValue } from './db/kysely/values.js'
export { withDefaults } from './db/kysely/rows.js'
export { toDatabaseError } from './db/kysely/errors.js'
export { createQueue, noQueue } from './db/queue.js'
export { DEFAULT_LOCK_TIMEOUT, lockTimeoutMillis } from './db/kysely/lock-timeout.js'
export type { Queue } from './db/queue.js'
// The Prisma model and field names `gatehouse generate --format prisma` writes, which @gatehouse/prisma looks its models up by.
export { nameSchema as prismaNames } from './db/prisma-names.js'
export type { ModelNames as PrismaModelNames, Relation as PrismaRelation, SchemaNames as PrismaSchemaNames } from './db/prisma-names.js'
export type { SqlDialect } from './db/kysely/dialect.js'
export type {
  Adapter,
  AdapterCapabilities,
  AdapterFactory,
  Condition,
  DatabaseErrorCode,
  Joins,
  JoinSpec,
  MigrationResult,
  Operator,
  Row,
  SortBy,
  Where,
  WhereInput,
} from './db/adapter.js'
export type { DatabaseHookContext, DatabaseHooks, ModelHooks, Store } from './db/store.js'
export { generateMigrations, runMigrations } from './migrations/run-migrations.js'
// Expired rows (docs/core.md#cleanup): `auth.api.cleanup()` runs it; plugins list their own targets.
export { runCleanup } from './cleanup/run-cleanup.js'
export type { CleanupOptions, CleanupResult, CleanupTarget } from './types/cleanup.js'
// Faults that answer 503 with Retry-After (docs/core.md#transient-faults).
export { transientFault } from './db/transient.js'
export type { TransientFault } from './db/transient.js'
export { isStorageUnavailable, StorageUnavailableError } from './storage/errors.js'

export { memoryStorage } from './storage/memory-storage.js'
export type { SecondaryStorage } from './storage/types.js'
export { credentialPaths } from './rate-limit/rules.js'
export type { RateLimitOptions, RateLimitRule } from './rate-limit/rules.js'
// The counter stores behind `rateLimit.storage`, for plugins that count by something else than the address (billing's per-user usage budget).
export { databaseRateLimitStore, memoryRateLimitStore, secondaryRateLimitStore } from './rate-limit/index.js'
export type { RateLimitDecision, RateLimitStore, RateLimitStorageKind } from './rate-limit/index.js'

export { hashPassword, verifyPassword, detectScryptBackend, defaultPasswordHasher } from './password/index.js'
export type { PasswordHasher } from './password/index.js'
export {
  sessionMiddleware,
  sensitiveSessionMiddleware,
  optionalSessionMiddleware,
  optionalSensitiveSessionMiddleware,
  freshSessionMiddleware,
  credentialSessionMiddleware,
  refuseForeignCredential,
} from './session/middleware.js'
// Credentials other than the cookie (docs/sessions.md#credentials-other-than-the-cookie).
export { requestSessionToken, sessionSource } from './session/credentials.js'
export { exposeHeader } from './cookies/bearer-header.js'
export type { SessionOrigin } from './session/credentials.js'
// For plugins that change fields of the caller's session (activeOrganizationId): keep the cookie cache and secondary storage in step.
export { setCookieCache } from './session/session-cookies.js'
export { refreshUserInStorage } from './session/session-store.js'
// For plugins that end the caller's session themselves (the OIDC provider's RP-initiated logout).
export { deleteSessions } from './session/session-store.js'
export { clearSessionCookies } from './session/session-cookies.js'
// For plugins that open or end sessions for a user other than the caller (the admin plugin's impersonation and bans).
export { createSession, deleteUserSessions, findSession, hashSessionToken, mirrorSession, requireCredentialVersion, userSessions } from './session/session-store.js'
export type { CreatedSession, CreateSessionDetails } from './session/session-store.js'
// For plugins that end a user's sign-ins for the account's security (the admin plugin's ban): sessions and every plugin's grants.
export { revokeUserCredentials } from './session/revoke-credentials.js'
export type { RevokeCredentials } from './session/revoke-credentials.js'
// For plugins whose sign-in proves the mailbox (magic links): the first proof makes the prover the only owner.
export { proveMailbox } from './session/prove-mailbox.js'
export { completeFirstFactor } from './session/first-factor.js'
export { signInWithPassword } from './routes/sign-in/password-sign-in.js'
export { applyPasswordReset, reportPasswordReset } from './routes/password/apply-password-reset.js'
export { deleteUserRows, removeUser } from './routes/user/remove-user.js'
export type { PasswordReset } from './routes/password/apply-password-reset.js'
export type { PasswordSignIn, PasswordSignInAnswer } from './routes/sign-in/password-sign-in.js'
export type { FirstFactor, FirstFactorOutcome } from './session/first-factor.js'
export {
  DEFAULT_ALLOWED_ATTEMPTS,
  DEFAULT_CODE_DIGITS,
  DEFAULT_CODE_EXPIRES_IN,
  DEFAULT_SEND_LIMITS,
  discardCode,
  issueCode,
  limitSends,
  MIN_CODE_DIGITS,
  redeemCode,
  redeemCodeOrThrow,
  resolveCodeOptions,
} from './verification/one-time-code.js'
export type { CodeErrors, CodeOptionsInput, CodeRefusal, CodeSettings, CodeTarget, IssueCodeOptions, RedeemCodeOptions, Redeemed, SendLimit } from './verification/one-time-code.js'
export type { MailboxProof } from './session/prove-mailbox.js'
export { readSessionToken, setSessionCookies } from './session/session-cookies.js'
export { sessionCookieSet } from './session/session-set.js'
export type { SessionCookieSet } from './session/session-set.js'
// What a route may send back of a stored row: without its `returned: false` fields.
export { publicRow } from './db/output.js'
// For plugins that keep cookies of their own under a name pattern (multi-session).
export { parseCookieHeader } from './cookies/cookie-header.js'
export { MAX_IMAGE_LENGTH, MAX_NAME_LENGTH } from './endpoint/input-limits.js'
// For plugins whose browser flows end in a redirect (single sign-on callbacks): `?error=<code>` on the flow's error URL, else the error page.
export { errorRedirect } from './social/flow.js'
// For plugins that must show an error rather than redirect to an unverified address (the OIDC provider's authorize).
export { errorPageResponse } from './routes/system/error-page.js'
export type { ErrorPageContent } from './routes/system/error-page.js'
// For plugins whose GET link signs a browser in (magic links): never silently into another user's place (login CSRF).
export { confirmationPage, confirmSignInPage } from './routes/system/confirm-sign-in-page.js'
export type { ConfirmationContent, ConfirmSignInContent } from './routes/system/confirm-sign-in-page.js'
export { otherUserSession, signedInUserId } from './session/session-switch.js'
// For plugins that mail sign-in links: which browser asked for one (login CSRF, docs/security.md#login-csrf).
export { bindLinkToBrowser, isBrowserNavigation, isLinkBoundToBrowser, needsLinkConfirmation } from './session/link-binding.js'
export type { Session, SessionWithUser, User } from './types/rows.js'
// For plugins that mail users: one error and one log line when the application's mail callback fails.
export { deliverMail } from './accounts/mail.js'
export { createAfterAnswer } from './endpoint/after-answer.js'
export type { AfterAnswer } from './endpoint/after-answer.js'
// For plugins that sign a user in themselves (magic links): addresses compared as the user table stores them.
export { normalizeEmail } from './accounts/email.js'
// For plugins that prove an address or name the account in their own way (email codes, usernames).
export { findUserByEmail } from './accounts/users.js'
export { clearEmailMoves, hasUnprovenMove } from './accounts/email-moves.js'
export { pickAdditionalFields } from './accounts/additional-fields.js'
// For plugins that keep single-use tokens: only the token's SHA-256 is stored (verification/verification-token.ts).
export { sha256Base64url } from './crypto/keys.js'
export { appendQueryParam } from './security/append-query.js'
export type {
  AccountOptions,
  EmailAndPasswordOptions,
  EmailVerificationOptions,
  MailContext,
  SessionOptions,
  UserOptions,
} from './options.js'

// Social sign-in: provider modules and their types (docs/social.md#writing-a-provider).
export { defineProvider, isRecord, stringField } from './types/social.js'
export type {
  AppleProviderConfig,
  ConfigOf,
  ConfiguredProvider,
  GenericOAuthConfig,
  GenericOidcConfig,
  GenericProviderConfig,
  GitlabProviderConfig,
  MappedUserFields,
  MicrosoftProviderConfig,
  NamedProviderConfigs,
  NamedProviderId,
  ProviderDefinition,
  ProviderEnvironment,
  ProviderFactory,
  ProviderRequestContext,
  ProviderTokens,
  ProviderUserInfo,
  ResponseMode,
  SocialProviderConfig,
  SocialProvidersOptions,
  TokenAuthMethod,
} from './types/social.js'

export { manualClock, systemClock } from './crypto/clock.js'
// For plugins that check their own MACs (webhook signatures): one comparison that never stops at the first difference.
export { constantTimeEqual } from './crypto/keys.js'
export type { Clock } from './crypto/clock.js'
export type { Random } from './crypto/random.js'
export type { Secrets } from './crypto/keys.js'
// Signing keys shared by the plugins that sign (docs/plugins.md#signing-keys-shared-by-plugins).
export {
  DEFAULT_ROTATION_INTERVAL,
  getJwks,
  isSigningAlgorithm,
  JWKS_MAX_AGE,
  jwksSchema,
  KEY_CACHE_TTL_MS,
  PREPUBLISH_SECONDS,
  PUBLICATION_MARGIN_SECONDS,
  RSA_MODULUS_LENGTH,
  signingKeyPolicy,
  signingKeys,
  SUPPORTED_ALGORITHMS,
} from './signing-keys/index.js'
export type { CurrentKey, KeyContext, SigningAlgorithm, SigningKeyNeeds, SigningKeyPolicy, SigningKeys } from './signing-keys/index.js'
