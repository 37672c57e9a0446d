export { createAuth } from './auth/create-auth.js'
export type { Auth, AuthEndpoints, PluginEndpoints, SessionFields, UserFields } from './auth/create-auth.js'
export type { CoreEndpoints } from './routes/index.js'
export type { AdvancedOptions, GatehouseOptions } from './options.js'

export { defineEndpoint } from './endpoint/define-endpoint.js'
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
export type { CookieJar, CookieNames } from './endpoint/cookie-jar.js'
export type { Api, ApiArgs, ApiMethod, WithFields } from './endpoint/api.js'
export { createLogger } from './endpoint/logger.js'
export type { Logger, LoggerOptions, LogLevel } from './endpoint/logger.js'

export { AuthError, CoreErrors, defineErrors, HttpStatus, isAuthError } from './errors/index.js'
export type { AuthErrorOptions, CoreErrorCode, ErrorCatalogue, ErrorDefinition } from './errors/index.js'

export { definePlugin } from './plugins/types.js'
export type { AfterHook, BeforeHook, GatehousePlugin, PluginRateLimitRule } from './plugins/types.js'

export { coreSchema, mergeSchemas } from './db/schema.js'
export type { CompositeUnique, FieldDefinition, FieldType, ModelDefinition, Schema, SchemaExtension } from './db/schema.js'
export { DatabaseError, isUniqueViolation } from './db/adapter.js'
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

export { memoryStorage } from './storage/memory-storage.js'
export type { SecondaryStorage } from './storage/types.js'
export type { RateLimitOptions, RateLimitRule } from './rate-limit/rules.js'

export { hashPassword, verifyPassword, detectScryptBackend, defaultPasswordHasher } from './password/index.js'
export type { PasswordHasher } from './password/index.js'
export { sessionMiddleware, sensitiveSessionMiddleware, optionalSessionMiddleware } from './session/middleware.js'
// For plugins that change fields of the caller's session (activeOrganizationId): keep the cookie cache and secondary storage in step.
export { setCookieCache } from './session/session-cookies.js'
export { refreshUserInStorage } from './session/session-store.js'
// For plugins that end the caller's session themselves (the OIDC provider's RP-initiated logout).
export { deleteSessions } from './session/session-store.js'
export { clearSessionCookies } from './session/session-cookies.js'
// For plugins that must show an error rather than redirect to an unverified address (the OIDC provider's authorize).
export { errorPageResponse } from './routes/system/error-page.js'
export type { ErrorPageContent } from './routes/system/error-page.js'
export type { Session, SessionWithUser, User } from './session/types.js'
// For plugins that mail users: one error and one log line when the application's mail callback fails.
export { deliverMail } from './accounts/mail.js'
export type {
  AccountOptions,
  EmailAndPasswordOptions,
  EmailVerificationOptions,
  MailContext,
  UserOptions,
} from './options.js'
export type { SessionOptions } from './session/session-options.js'

export { manualClock, systemClock } from './crypto/clock.js'
// For plugins that check their own MACs (webhook signatures): one comparison that never stops at the first difference.
export { constantTimeEqual } from './crypto/keys.js'
export type { Clock } from './crypto/clock.js'
export type { Random } from './crypto/random.js'
export type { Secrets } from './crypto/keys.js'
