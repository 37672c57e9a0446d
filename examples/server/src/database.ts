/**
 * @module
 * The stores behind the example: SQLite at DATABASE_PATH by default,
 * PostgreSQL or MySQL/MariaDB from DATABASE_URL, and Redis from REDIS_URL as
 * secondary storage (docs/deployment.md#what-each-store-holds). Each driver is
 * imported only when its URL asks for it, so the SQLite default starts without
 * loading pg, mysql2 or ioredis. DATABASE_ADAPTER=drizzle serves the same
 * database through `@gatehouse/drizzle` instead (drizzle-database.ts).
 */
import { createRequire } from 'node:module'
import type { AdapterFactory, SecondaryStorage } from '@gatehouse/core'
import { sqliteAdapter } from '@gatehouse/core/adapters/sqlite'
import type { ServerConfig } from './config.js'

export interface ExampleStores {
  /** What `createAuth({ database })` takes: the SQLite path or an adapter factory. */
  readonly database: string | AdapterFactory
  readonly secondaryStorage: SecondaryStorage | undefined
  /** Where rate-limit counters live when there is no secondary storage to hold them. */
  readonly rateLimitStorage: 'database' | undefined
  /** For the start-up line: the kind of database and its host, never a password. */
  readonly description: string
  /** Quits the Redis connection; the database pool is closed by `auth.close()`. */
  close(): Promise<void>
}

export const DEFAULT_REDIS_KEY_PREFIX = 'gatehouse:'

/**
 * better-sqlite3's addon, named for the adapter: the built server bundles
 * better-sqlite3's JavaScript (tsup.config.ts), and bundled, the package
 * cannot find its addon beside itself. Resolved from this package, as the
 * driver itself would be.
 */
function sqliteAddon(): string {
  return createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node')
}

/** The SQLite default, synchronous: what `createExampleAuth` uses when it is given no stores. */
export function sqliteStores(config: ServerConfig): ExampleStores {
  return {
    database: sqliteAdapter(config.databasePath, { nativeBinding: sqliteAddon() }),
    secondaryStorage: undefined,
    rateLimitStorage: undefined,
    description: `sqlite ${config.databasePath}`,
    close: async () => undefined,
  }
}

/**
 * @example
 * const stores = await openStores(readConfig(process.env))
 * const auth = createExampleAuth(config, mailer, webhookLog, stores)
 */
export async function openStores(config: ServerConfig): Promise<ExampleStores> {
  const drizzle = config.databaseAdapter === 'drizzle'
  if (config.databaseUrl === undefined && config.redisUrl === undefined && !drizzle) return sqliteStores(config)
  const sql = drizzle ? await drizzleDatabase(config) : config.databaseUrl === undefined ? undefined : await sqlAdapter(config.databaseUrl)
  const redis = config.redisUrl === undefined ? undefined : await openRedis(config.redisUrl, config.redisKeyPrefix ?? DEFAULT_REDIS_KEY_PREFIX)
  return {
    database: sql ?? sqliteAdapter(config.databasePath, { nativeBinding: sqliteAddon() }),
    secondaryStorage: redis?.storage,
    // Without Redis, processes that share a database server share their counters through it: in-memory
    // counters would give every process its own budget (docs/deployment.md#rate-limits).
    rateLimitStorage: redis === undefined && config.databaseUrl !== undefined ? 'database' : undefined,
    description: [
      config.databaseUrl === undefined ? `sqlite ${config.databasePath}` : redacted(config.databaseUrl),
      drizzle && 'through drizzle',
      redis && `+ redis ${redacted(config.redisUrl ?? '')}`,
    ]
      .filter(Boolean)
      .join(' '),
    close: async () => redis?.close(),
  }
}

/** The adapter opens and owns its pool: `auth.close()` ends it, and core keeps a lost connection from ending the process. */
async function sqlAdapter(url: string): Promise<AdapterFactory> {
  if (url.startsWith('mysql:')) {
    const { mysqlAdapter } = await import('@gatehouse/core/adapters/mysql')
    return mysqlAdapter(url)
  }
  const { postgresAdapter } = await import('@gatehouse/core/adapters/postgres')
  return postgresAdapter(url)
}

/** `@gatehouse/drizzle` on the configured database, loaded only when DATABASE_ADAPTER=drizzle asks for it. */
async function drizzleDatabase(config: ServerConfig): Promise<AdapterFactory> {
  const { drizzleDatabase: open } = await import('./drizzle-database.js')
  return open(config, sqliteAddon())
}

/**
 * Core's Redis storage on a connection it opens and owns: commands fail
 * fast while Redis is away (core then reads sessions from the database and
 * fails credential routes closed: docs/secondary-storage.md#when-redis-is-down),
 * and it reconnects by itself.
 */
async function openRedis(url: string, keyPrefix: string): Promise<{ storage: SecondaryStorage; close(): Promise<void> }> {
  const { redisStorage } = await import('@gatehouse/core/storage/redis')
  const storage = redisStorage({ url, keyPrefix })
  return { storage, close: () => storage.close() }
}

/** The URL without its user and password, for logs. */
export function redacted(raw: string): string {
  const url = new URL(raw)
  return `${url.protocol}//${url.host}${url.pathname}`
}
