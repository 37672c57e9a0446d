/**
 * @module
 * The explicit context handlers are pure functions of. `AuthContext` is built
 * once per `createAuth` (database, clock, randomness, secrets, logger,
 * options); `EndpointContext` adds one call's input, cookies and response
 * headers. Handlers never read `process.env` or the wall clock themselves.
 */
import type { Adapter } from '../db/adapter.js'
import type { Schema } from '../db/schema.js'
import type { Store } from '../db/store.js'
import type { Clock } from '../crypto/clock.js'
import type { Random } from '../crypto/random.js'
import type { Secrets } from '../crypto/keys.js'
import type { CachePayloadMemo } from '../session/cache-payload.js'
import type { CookieJar, CookieNames } from './cookie-jar.js'
import type { Logger } from './logger.js'
import type { Method } from './define-endpoint.js'
import type { GatehouseOptions } from '../options.js'
import type { GatehousePlugin } from '../plugins/types.js'
import type { SecondaryStorage } from '../storage/types.js'
import type { PasswordService } from '../accounts/passwords.js'

export interface AuthContext {
  readonly options: GatehouseOptions
  /** Where the auth routes live: origin plus base path, e.g. `https://app.test/api/auth`. */
  readonly baseURL: string
  readonly origin: string
  readonly basePath: string
  readonly production: boolean
  readonly schema: Schema
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
  /** True for the base URL's origin and every configured trusted origin or pattern (SPEC §5). */
  isTrustedOrigin(origin: string): boolean
  /** A 32-character id from the CSPRNG, or the configured `advanced.generateId`. */
  generateId(model: string): string
}

/** What one request or server-side call sees. */
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
