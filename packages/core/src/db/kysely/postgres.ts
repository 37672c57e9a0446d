/**
 * @module
 * `@gatehouse/core/adapters/postgres`: the Kysely adapter on pg's Pool.
 * Imports pg only, never better-sqlite3 or mysql2.
 */
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { AdapterFactory } from '../adapter.js'
import { createKyselyAdapter } from './kysely-adapter.js'

export interface PostgresAdapterOptions {
  /**
   * A schema to work in: every connection sets `search_path` to it, so
   * tables are created and read there. It must exist already.
   */
  readonly schema?: string
}

type Tables = Record<string, Record<string, unknown>>

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
  return ({ schema }) => {
    const source = connectionStringOrPoolOrConfig
    const owned = !isPool(source)
    const pool = isPool(source) ? source : new pg.Pool(typeof source === 'string' ? { connectionString: source } : source)
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
  }
}
