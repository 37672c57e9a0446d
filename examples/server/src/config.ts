/**
 * @module
 * The server's settings, read once from the environment. Everything is
 * optional and has a development default, except that a production server
 * (NODE_ENV=production) refuses to start without its own AUTH_SECRET: a
 * secret that ships in a public repository signs nothing.
 */
import { resolve } from 'node:path'
import { billingPlatform, type BillingPlatformConfig } from './billing-config.js'
import { boundedInteger, ConfigError, origin, serviceUrl, value, type Env } from './config-env.js'
import { socialProviders, type SocialProviders } from './social-config.js'

export { ConfigError } from './config-env.js'
export type { BillingPlatformConfig } from './billing-config.js'
export { SOCIAL_PROVIDER_IDS } from './social-config.js'
export type { GenericOidcSettings, SocialProviderId, SocialProviderSettings, SocialProviders } from './social-config.js'

export interface ServerConfig {
  readonly port: number
  readonly baseURL: string
  readonly secret: string
  /** True when AUTH_SECRET was not set and the development secret is in use. */
  readonly secretIsDevelopmentDefault: boolean
  readonly production: boolean
  /** The SQLite file (created, with its directory, at start) when DATABASE_URL is unset. */
  readonly databasePath: string
  /**
   * DATABASE_URL: PostgreSQL (`postgres://`) or MySQL/MariaDB (`mysql://`) instead of SQLite,
   * for several processes or machines (docs/deployment.md). Undefined: SQLite at `databasePath`.
   */
  readonly databaseUrl?: string | undefined
  /**
   * DATABASE_ADAPTER: `kysely` (core's own adapters) or `drizzle` (`@gatehouse/drizzle` on the same
   * database, with the schema modules in src/drizzle: docs/adapters.md#using-drizzle). Undefined means kysely.
   */
  readonly databaseAdapter?: 'kysely' | 'drizzle' | undefined
  /** REDIS_URL: secondary storage for sessions and rate limits (docs/deployment.md#what-each-store-holds). */
  readonly redisUrl?: string | undefined
  /** REDIS_KEY_PREFIX: prepended to every Redis key; undefined means `gatehouse:`. */
  readonly redisKeyPrefix?: string | undefined
  /** COOKIE_CACHE_MAX_AGE in seconds: the cookie cache's lifetime; undefined means 300. */
  readonly cookieCacheMaxAge?: number | undefined
  /** WORKERS: processes serving one port (node:cluster); undefined means one, no cluster. */
  readonly workers?: number | undefined
  /** SHUTDOWN_TIMEOUT in ms: how long SIGTERM waits for requests in flight; undefined means 10 s. */
  readonly shutdownTimeoutMs?: number | undefined
  readonly trustedOrigins: readonly string[]
  readonly billingWebhookSecret: string | undefined
  /**
   * POLAR_ACCESS_TOKEN, POLAR_SERVER (`production` or `sandbox`), POLAR_SERVER_URL, POLAR_PRODUCTS
   * (`slug=productId,…`), POLAR_SUCCESS_URL, POLAR_USAGE_EVENTS (`name` or `name:max`, the usage events users
   * may report; without it POST /usage/ingest does not exist): the billing plugin's outbound calls
   * (docs/billing.md#outbound-calls). Undefined without a token: checkout, portal and usage answer 501; webhooks
   * and reading work as before.
   */
  readonly billingPlatform?: BillingPlatformConfig | undefined
  /** Session cookie cache with a 300 s lifetime. */
  readonly cookieCache: boolean
  /**
   * BEARER=1: `Authorization: Bearer <session token>` authenticates like the session cookie, and sign-in and
   * sign-up answer `set-auth-token` (docs/sessions.md#bearer-tokens). Off by default.
   */
  readonly bearer: boolean
  /** MULTI_SESSION=1: several accounts signed in at once in one browser, with an account switcher (docs/multi-session.md). Off by default. */
  readonly multiSession: boolean
  readonly rateLimit: boolean
  /**
   * How many reverse proxies in front of the server append to X-Forwarded-For
   * (TRUST_PROXY). 0: the client is the socket peer and the header is ignored.
   */
  readonly trustProxy: number
  /** A file every sent email is appended to as one JSON line. */
  readonly mailLog: string | undefined
  /** SMS_LOG: a file every text message is appended to as one JSON line `{"to","code","type"}`. */
  readonly smsLog: string | undefined
  /** A file every applied billing webhook event is appended to as one JSON line. */
  readonly webhookLog: string | undefined
  /** ADMIN_EMAILS, lowercased: verified users with these addresses get the admin role (admins.ts). */
  readonly adminEmails: ReadonlySet<string>
  /**
   * Social sign-in: every provider whose `<ID>_CLIENT_ID` and `<ID>_CLIENT_SECRET` are set, and the
   * generic OpenID Connect provider `oidc` from `SOCIAL_OIDC_*` (docs/social.md#providers).
   */
  readonly socialProviders: SocialProviders
}

// Long enough for Gatehouse's 32-character minimum, and impossible to mistake for a real secret.
export const DEVELOPMENT_SECRET = 'gatehouse-example-development-secret-never-use-in-production'

function port(env: Env): number {
  const raw = value(env, 'PORT')
  if (raw === undefined) return 3000
  const parsed = Number(raw)
  if (!/^\d+$/.test(raw) || parsed > 65_535) throw new ConfigError(`PORT must be a port number, got "${raw}"`)
  return parsed
}

/**
 * A count, never `true`: trusting every hop would take the leftmost
 * X-Forwarded-For entry, which the client writes itself (docs/rate-limits.md).
 */
function trustProxy(env: Env): number {
  const raw = value(env, 'TRUST_PROXY')
  if (raw === undefined) return 0
  if (!/^[0-9]{1,2}$/.test(raw)) {
    throw new ConfigError(
      `TRUST_PROXY must be the number of reverse proxies in front of the server that append to X-Forwarded-For (0 for none, 1 for one), got "${raw}"`,
    )
  }
  return Number(raw)
}

function databaseAdapter(env: Env): 'kysely' | 'drizzle' | undefined {
  const raw = value(env, 'DATABASE_ADAPTER')
  if (raw === undefined || raw === 'kysely' || raw === 'drizzle') return raw
  throw new ConfigError(`DATABASE_ADAPTER must be kysely or drizzle, got "${raw}"`)
}

/** DATABASE_URL, DATABASE_ADAPTER, REDIS_URL, WORKERS and SHUTDOWN_TIMEOUT: running several processes (docs/deployment.md). */
function deployment(env: Env) {
  const databaseUrl = serviceUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:', 'mysql:'], 'postgres:// or mysql://')
  const workers = boundedInteger(env, 'WORKERS', 1, 256, 'the number of server processes')
  // Each process would open its own SQLite file handle and keep its own rate-limit counters in memory:
  // several processes need a database server (docs/deployment.md#several-processes).
  if (workers !== undefined && workers > 1 && databaseUrl === undefined) {
    throw new ConfigError(`WORKERS=${workers} needs DATABASE_URL (PostgreSQL or MySQL): SQLite serves one process`)
  }
  // A revoked session stays usable on other processes until its cached cookie expires (docs/deployment.md#sessions-and-the-cookie-cache).
  const cookieCacheMaxAge = boundedInteger(env, 'COOKIE_CACHE_MAX_AGE', 1, 86_400, 'the cookie cache lifetime in seconds')
  const timeout = boundedInteger(env, 'SHUTDOWN_TIMEOUT', 1, 600, 'the seconds SIGTERM waits for requests in flight')
  return {
    databaseUrl,
    databaseAdapter: databaseAdapter(env),
    redisUrl: serviceUrl(env, 'REDIS_URL', ['redis:', 'rediss:'], 'redis:// or rediss://'),
    redisKeyPrefix: env.REDIS_KEY_PREFIX === undefined || env.REDIS_KEY_PREFIX === '' ? undefined : env.REDIS_KEY_PREFIX,
    cookieCacheMaxAge,
    workers,
    shutdownTimeoutMs: timeout === undefined ? undefined : timeout * 1000,
  }
}

/**
 * @example
 * const config = readConfig(process.env)
 * config.baseURL // 'http://127.0.0.1:3000' unless BASE_URL or PORT say otherwise
 */
export function readConfig(env: Env, cwd: string = process.cwd()): ServerConfig {
  const production = env.NODE_ENV === 'production'
  const listenPort = port(env)
  const secret = value(env, 'AUTH_SECRET')
  if (production && secret === undefined) {
    throw new ConfigError('AUTH_SECRET is required when NODE_ENV=production (32 characters or more, e.g. `openssl rand -base64 32`)')
  }
  const trustedOrigins = (value(env, 'TRUSTED_ORIGINS') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const file = (name: string) => {
    const path = value(env, name)
    return path === undefined ? undefined : resolve(cwd, path)
  }
  return {
    port: listenPort,
    baseURL: origin('BASE_URL', value(env, 'BASE_URL') ?? `http://127.0.0.1:${listenPort}`),
    secret: secret ?? DEVELOPMENT_SECRET,
    secretIsDevelopmentDefault: secret === undefined,
    production,
    databasePath: resolve(cwd, value(env, 'DATABASE_PATH') ?? './data/gatehouse.db'),
    trustedOrigins,
    billingWebhookSecret: value(env, 'BILLING_WEBHOOK_SECRET'),
    billingPlatform: billingPlatform(env),
    cookieCache: value(env, 'COOKIE_CACHE') === '1',
    bearer: value(env, 'BEARER') === '1',
    multiSession: value(env, 'MULTI_SESSION') === '1',
    rateLimit: value(env, 'RATE_LIMIT') !== '0',
    trustProxy: trustProxy(env),
    mailLog: file('MAIL_LOG'),
    smsLog: file('SMS_LOG'),
    webhookLog: file('WEBHOOK_LOG'),
    adminEmails: new Set(
      (value(env, 'ADMIN_EMAILS') ?? '')
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
    socialProviders: socialProviders(env),
    ...deployment(env),
  }
}
