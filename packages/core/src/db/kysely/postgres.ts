/**
 * @module
 * `@gatehouse/core/adapters/postgres`: the Kysely adapter on pg's Pool.
 * Imports pg only, never better-sqlite3 or mysql2.
 */
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { withDialect, type AdapterFactory } from '../adapter.js'
import { createKyselyAdapter } from './kysely-adapter.js'
import { lockTimeoutMillis, sessionLockTimeout } from './lock-timeout.js'

export interface PostgresAdapterOptions {
  /**
   * A schema to work in: every connection sets `search_path` to it, so
   * tables are created and read there. It must exist already.
   */
  readonly schema?: string | undefined
  /**
   * How long a statement waits for a row lock, in milliseconds, before it
   * fails with a `TRANSIENT` DatabaseError (503 with Retry-After); `0` keeps
   * the server's `lock_timeout`. Defaults to 10 000: Gatehouse holds its own
   * row locks for a few statements, so a longer wait means a lock held
   * elsewhere, such as your own open transaction (docs/adapters.md#transactions).
   * Set on each connection the adapter uses, a pool you pass in included.
   */
  readonly lockTimeout?: number | undefined
}

type Tables = Record<string, Record<string, unknown>>

/**
 * For a pool the adapter creates: a checkout waits at most this long for a
 * connection (pg's default waits forever), so a database that does not
 * answer yields a 503 instead of a request that never ends. Yours to override.
 */
const ownedPoolDefaults = { connectionTimeoutMillis: 10_000 } as const satisfies pg.PoolConfig

function ignoreClientError(): void {}

function isPool(source: string | pg.Pool | pg.PoolConfig): source is pg.Pool {
  return typeof source === 'object' && typeof Reflect.get(source, 'connect') === 'function'
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

/**
 * Connects to PostgreSQL with a connection string, a pool config, or a pool
 * you already have. A pool the adapter created is ended by `close()`; yours
 * stays open.
 *
 * @example
 * const auth = createAuth({ database: postgresAdapter(process.env.DATABASE_URL) })
 * // isolated in a schema:
 * postgresAdapter('postgres://localhost/app', { schema: 'auth' })
 */
export function postgresAdapter(
  connectionStringOrPoolOrConfig: string | pg.Pool | pg.PoolConfig,
  options: PostgresAdapterOptions = {},
): AdapterFactory {
  return withDialect('postgres', ({ schema }) => {
    const source = connectionStringOrPoolOrConfig
    const owned = !isPool(source)
    const pool = isPool(source) ? source : new pg.Pool({ ...ownedPoolDefaults, ...(typeof source === 'string' ? { connectionString: source } : source) })
    // A backend that ends (a restart, pg_terminate_backend) is reported as an 'error' event: on the pool for an
    // idle client, on the client itself for one checked out between two statements of a transaction. Unlistened,
    // Node treats either as uncaught and stops the process. The query in progress still fails (and answers 503),
    // the dead client is not queryable, and the pool drops it on release (docs/adapters.md#transient-faults).
    if (pool.listenerCount('error') === 0) pool.on('error', ignoreClientError)
    pool.on('connect', (client) => client.on('error', ignoreClientError))
    const searchPath = options.schema
    const lockTimeout = sessionLockTimeout('postgres', lockTimeoutMillis(options.lockTimeout, 'postgresAdapter'))
    const settings = [searchPath === undefined ? undefined : `set search_path to ${quoteIdentifier(searchPath)}`, lockTimeout].filter((setting) => setting !== undefined)
    const db = new Kysely<Tables>({
      dialect: new PostgresDialect({
        pool,
        // Runs once per pooled client, so a pool you pass in is scoped too.
        onCreateConnection:
          settings.length === 0
            ? undefined
            : async (connection) => {
                for (const setting of settings) await connection.executeQuery(CompiledQuery.raw(setting))
              },
      }),
    })
    return createKyselyAdapter({ db, dialect: 'postgres', ownsConnection: owned }, schema)
  })
}
