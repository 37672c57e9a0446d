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
  /** The SQLite file (created, with its directory, at start). */
  readonly databasePath: string
  readonly trustedOrigins: readonly string[]
  readonly billingWebhookSecret: string | undefined
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
}

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
    cookieCache: value(env, 'COOKIE_CACHE') === '1',
    rateLimit: value(env, 'RATE_LIMIT') !== '0',
    trustProxy: trustProxy(env),
    mailLog: file('MAIL_LOG'),
    webhookLog: file('WEBHOOK_LOG'),
  }
}
