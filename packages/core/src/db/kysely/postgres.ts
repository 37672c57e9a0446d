/**
 * @module
 * `@gatehouse/core/adapters/postgres`: the Kysely adapter on pg's Pool.
 * Imports pg only, never better-sqlite3 or mysql2.
 */
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { withDialect, type AdapterFactory } from '../adapter.js'
import { createKyselyAdapter } from './kysely-adapter.js'

export interface PostgresAdapterOptions {
  /**
   * A schema to work in: every connection sets `search_path` to it, so
   * tables are created and read there. It must exist already.
   */
  readonly schema?: string | undefined
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
    const db = new Kysely<Tables>({
      dialect: new PostgresDialect({
        pool,
        // Runs once per pooled client, so a pool you pass in is scoped too.
        onCreateConnection:
          searchPath === undefined
            ? undefined
            : async (connection) => {
                await connection.executeQuery(CompiledQuery.raw(`set search_path to ${quoteIdentifier(searchPath)}`))
              },
      }),
    })
    return createKyselyAdapter({ db, dialect: 'postgres', ownsConnection: owned }, schema)
  })
}
