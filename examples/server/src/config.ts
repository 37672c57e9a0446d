/**
 * @module
 * The server's settings, read once from the environment. Everything is
 * optional and has a development default, except that a production server
 * (NODE_ENV=production) refuses to start without its own AUTH_SECRET: a
 * secret that ships in a public repository signs nothing.
 */
import { resolve } from 'node:path'

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
   * (`slug=productId,…`), POLAR_SUCCESS_URL: the billing plugin's outbound calls (docs/billing.md#outbound-calls).
   * Undefined without a token: checkout, portal and usage answer 501; webhooks and reading work as before.
   */
  readonly billingPlatform?: BillingPlatformConfig | undefined
  /** Session cookie cache with a 300 s lifetime. */
  readonly cookieCache: boolean
  readonly rateLimit: boolean
  /**
   * How many reverse proxies in front of the server append to X-Forwarded-For
   * (TRUST_PROXY). 0: the client is the socket peer and the header is ignored.
   */
  readonly trustProxy: number
  /** A file every sent email is appended to as one JSON line. */
  readonly mailLog: string | undefined
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

export interface BillingPlatformConfig {
  readonly accessToken: string
  readonly server: 'production' | 'sandbox'
  readonly serverURL: string | undefined
  readonly products: ReadonlyArray<{ readonly slug: string; readonly productId: string }>
  readonly successUrl: string | undefined
}

function billingPlatform(env: Env): BillingPlatformConfig | undefined {
  const accessToken = value(env, 'POLAR_ACCESS_TOKEN')
  if (accessToken === undefined) return undefined
  const server = value(env, 'POLAR_SERVER') ?? 'production'
  if (server !== 'production' && server !== 'sandbox') throw new ConfigError('POLAR_SERVER must be production or sandbox')
  const serverURL = value(env, 'POLAR_SERVER_URL')
  if (serverURL !== undefined) origin('POLAR_SERVER_URL', serverURL)
  const products = (value(env, 'POLAR_PRODUCTS') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [slug, productId, extra] = entry.split('=').map((part) => part.trim())
      if (!slug || !productId || extra !== undefined) throw new ConfigError(`POLAR_PRODUCTS: expected slug=productId, got ${JSON.stringify(entry)}`)
      return { slug, productId }
    })
  return { accessToken, server, serverURL, products, successUrl: value(env, 'POLAR_SUCCESS_URL') }
}

/** The named providers the server can enable, by id; `<ID>` in the variable names is the id in capitals. */
export const SOCIAL_PROVIDER_IDS = [
  'apple',
  'discord',
  'dropbox',
  'facebook',
  'github',
  'gitlab',
  'google',
  'huggingface',
  'kick',
  'linkedin',
  'microsoft',
  'reddit',
  'roblox',
  'spotify',
  'tiktok',
  'twitch',
  'twitter',
  'vk',
  'zoom',
] as const

export type SocialProviderId = (typeof SOCIAL_PROVIDER_IDS)[number]

export interface SocialProviderSettings {
  readonly clientId: string
  readonly clientSecret?: string
  /** Apple: the team, the key's id and its PKCS#8 PEM, to mint the client secret. */
  readonly teamId?: string
  readonly keyId?: string
  readonly privateKey?: string
  /** Apple: the iOS app whose ID Tokens are accepted too. */
  readonly appBundleIdentifier?: string
  /** Microsoft: `common` (default), `organizations`, `consumers` or a tenant id. */
  readonly tenantId?: string
  /** GitLab: a self-hosted instance's URL. */
  readonly issuer?: string
}

export interface GenericOidcSettings {
  readonly type: 'oidc'
  readonly issuer: string
  readonly name: string
  readonly clientId: string
  readonly clientSecret?: string
}

export type SocialProviders = { readonly [K in SocialProviderId]?: SocialProviderSettings } & { readonly oidc?: GenericOidcSettings }

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

// Long enough for Gatehouse's 32-character minimum, and impossible to mistake for a real secret.
export const DEVELOPMENT_SECRET = 'gatehouse-example-development-secret-never-use-in-production'

type Env = Readonly<Record<string, string | undefined>>

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim()
  return raw ? raw : undefined
}

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

function origin(name: string, raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`)
  return raw.replace(/\/+$/, '')
}

/** Both halves of a credential, or neither: one alone is a typo that would fail at the first sign-in. */
function pair(env: Env, idName: string, secretName: string): { clientId: string; clientSecret: string } | undefined {
  const clientId = value(env, idName)
  const clientSecret = value(env, secretName)
  if (clientId === undefined && clientSecret === undefined) return undefined
  if (clientId === undefined || clientSecret === undefined) {
    throw new ConfigError(`${idName} and ${secretName} must be set together (${clientId === undefined ? idName : secretName} is missing)`)
  }
  return { clientId, clientSecret }
}

/**
 * Apple's client secret is a JWT: give it ready-made (APPLE_CLIENT_SECRET, it expires within six months)
 * or give the key to mint one per request (APPLE_TEAM_ID, APPLE_KEY_ID, APPLE_PRIVATE_KEY).
 */
function appleSettings(env: Env): SocialProviderSettings | undefined {
  const clientId = value(env, 'APPLE_CLIENT_ID')
  const clientSecret = value(env, 'APPLE_CLIENT_SECRET')
  const teamId = value(env, 'APPLE_TEAM_ID')
  const keyId = value(env, 'APPLE_KEY_ID')
  // A PEM in one environment line usually has its newlines written as \n.
  const privateKey = value(env, 'APPLE_PRIVATE_KEY')?.replaceAll('\\n', '\n')
  const bundle = value(env, 'APPLE_APP_BUNDLE_IDENTIFIER')
  if ([clientId, clientSecret, teamId, keyId, privateKey, bundle].every((entry) => entry === undefined)) return undefined
  if (clientId === undefined) throw new ConfigError('APPLE_CLIENT_ID (the Services ID) is required when any APPLE_ variable is set')
  const app = bundle === undefined ? {} : { appBundleIdentifier: bundle }
  if (clientSecret !== undefined) return { clientId, clientSecret, ...app }
  if (teamId === undefined || keyId === undefined || privateKey === undefined) {
    throw new ConfigError('Apple needs APPLE_CLIENT_SECRET, or APPLE_TEAM_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY to mint one')
  }
  return { clientId, teamId, keyId, privateKey, ...app }
}

function socialProviders(env: Env): SocialProviders {
  const providers: Record<string, SocialProviderSettings | GenericOidcSettings> = {}
  for (const id of SOCIAL_PROVIDER_IDS) {
    if (id === 'apple') continue
    const prefix = id.toUpperCase()
    const credentials = pair(env, `${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`)
    if (credentials === undefined) continue
    const tenantId = id === 'microsoft' ? value(env, 'MICROSOFT_TENANT_ID') : undefined
    const issuer = id === 'gitlab' ? value(env, 'GITLAB_ISSUER') : undefined
    providers[id] = {
      ...credentials,
      ...(tenantId === undefined ? {} : { tenantId }),
      ...(issuer === undefined ? {} : { issuer: origin('GITLAB_ISSUER', issuer) }),
    }
  }
  const appleProvider = appleSettings(env)
  if (appleProvider) providers.apple = appleProvider

  const issuer = value(env, 'SOCIAL_OIDC_ISSUER')
  const clientId = value(env, 'SOCIAL_OIDC_CLIENT_ID')
  const clientSecret = value(env, 'SOCIAL_OIDC_CLIENT_SECRET')
  if (issuer !== undefined || clientId !== undefined || clientSecret !== undefined) {
    if (issuer === undefined || clientId === undefined) {
      throw new ConfigError('SOCIAL_OIDC_ISSUER and SOCIAL_OIDC_CLIENT_ID must be set together (SOCIAL_OIDC_CLIENT_SECRET too unless the client is public)')
    }
    origin('SOCIAL_OIDC_ISSUER', issuer)
    providers.oidc = {
      type: 'oidc',
      // An identifier compared character for character with the ID Token's `iss`: kept as given, trailing slash and all.
      issuer,
      name: value(env, 'SOCIAL_OIDC_NAME') ?? 'OpenID Connect',
      clientId,
      ...(clientSecret === undefined ? {} : { clientSecret }),
    }
  }
  return providers
}

/**
 * The scheme alone goes into the message: the rest of a database or Redis URL
 * usually carries a password, and configuration errors end up in logs.
 */
function serviceUrl(env: Env, name: string, schemes: readonly string[], hint: string): string | undefined {
  const raw = value(env, name)
  if (raw === undefined) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`${name} must be a URL (${hint})`)
  }
  if (!schemes.includes(url.protocol)) throw new ConfigError(`${name} must be a ${hint} URL, got scheme "${url.protocol}"`)
  return raw
}

function boundedInteger(env: Env, name: string, min: number, max: number, meaning: string): number | undefined {
  const raw = value(env, name)
  if (raw === undefined) return undefined
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be ${meaning}, a whole number from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

/** DATABASE_URL, REDIS_URL, WORKERS and SHUTDOWN_TIMEOUT: running several processes (docs/deployment.md). */
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
    rateLimit: value(env, 'RATE_LIMIT') !== '0',
    trustProxy: trustProxy(env),
    mailLog: file('MAIL_LOG'),
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
