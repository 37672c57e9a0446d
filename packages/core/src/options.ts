/**
 * @module
 * What `createAuth` accepts. Everything has a secure default; only `baseURL`
 * is required (the server never learns its own address from a request's
 * Host header, which a client controls), and in production `secret` too.
 */
import type { AdapterFactory } from './db/adapter.js'
import type { FieldDefinition, SchemaExtension } from './db/schema.js'
import type { DatabaseHooks } from './db/store.js'
import type { Clock } from './crypto/clock.js'
import type { Random } from './crypto/random.js'
import type { Logger, LoggerOptions } from './endpoint/logger.js'
import type { AfterHook, BeforeHook, GatehousePlugin } from './plugins/types.js'
import type { RateLimitOptions } from './rate-limit/rules.js'
import type { SecondaryStorage } from './storage/types.js'

export interface GatehouseOptions {
  /** Shown in mails and as the issuer name. */
  readonly appName?: string
  /** The application's public URL, e.g. `https://app.example.com`. Required. */
  readonly baseURL: string
  /** Where the routes are mounted below `baseURL`. Default `/api/auth`. */
  readonly basePath?: string
  /**
   * Secret for signing cookies and tokens: at least 32 characters. A list
   * rotates keys: the first signs, all verify. Falls back to the
   * GATEHOUSE_SECRET environment variable; required in production.
   */
  readonly secret?: string | readonly string[]
  /**
   * An adapter factory, or a SQLite file path (the embedded default). Without
   * one, an in-memory database is used and a warning says so; production refuses that.
   */
  readonly database?: AdapterFactory | string
  readonly secondaryStorage?: SecondaryStorage
  /** Extra origins allowed to call and to be redirected to: exact origins or `https://*.example.com` patterns. */
  readonly trustedOrigins?: readonly string[]
  readonly plugins?: readonly GatehousePlugin[]
  readonly rateLimit?: RateLimitOptions
  readonly hooks?: { readonly before?: readonly BeforeHook[]; readonly after?: readonly AfterHook[] }
  readonly databaseHooks?: DatabaseHooks
  /** Application tables, or fields added to existing ones. */
  readonly schema?: SchemaExtension
  readonly user?: { readonly additionalFields?: Readonly<Record<string, FieldDefinition>> }
  readonly session?: { readonly additionalFields?: Readonly<Record<string, FieldDefinition>> }
  readonly advanced?: AdvancedOptions
  readonly logger?: LoggerOptions | Logger
  /** Defaults to `process.env.NODE_ENV === 'production'`. */
  readonly production?: boolean
  /** Injected time and randomness, for tests. */
  readonly clock?: Clock
  readonly random?: Random
}

export interface AdvancedOptions {
  /** Default `gatehouse`: cookies are named `gatehouse.session_token` and so on. */
  readonly cookiePrefix?: string
  /** Default: true when `baseURL` is https (adds `Secure` and the `__Secure-` prefix). */
  readonly useSecureCookies?: boolean
  /** Shares cookies with subdomains of `domain`. */
  readonly crossSubDomainCookies?: { readonly enabled: boolean; readonly domain: string }
  /** Turns off the SPEC §5 origin check. Only for local development. */
  readonly disableOriginCheck?: boolean
  readonly ipAddress?: {
    /** Headers that carry the client address, in order of preference. Default `['x-forwarded-for']`. */
    readonly ipAddressHeaders?: readonly string[]
    readonly disableIpTracking?: boolean
    /** Proxies in front of the server that append to x-forwarded-for. Default 1. */
    readonly trustedProxyCount?: number
  }
  readonly generateId?: (model: string) => string
}
