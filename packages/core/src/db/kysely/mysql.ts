/**
 * @module
 * `@gatehouse/core/adapters/mysql`: the Kysely adapter on a mysql2 pool, for
 * MySQL 8 and MariaDB 10.5+. Imports mysql2 only, never better-sqlite3 or pg.
 */
import { Kysely, MysqlDialect } from 'kysely'
import { createPool, type Pool, type PoolOptions } from 'mysql2'
import type { AdapterFactory } from '../adapter.js'
import { createKyselyAdapter } from './kysely-adapter.js'

type Tables = Record<string, Record<string, unknown>>

function isPool(source: string | Pool | PoolOptions): source is Pool {
  return typeof source === 'object' && typeof Reflect.get(source, 'getConnection') === 'function'
}

/**
 * What the adapter's values rely on: DATETIME carries no zone, so the pool
 * must read and write it in UTC ('Z') or every date shifts by the server's
 * offset; BIGINT columns come back as numbers while they fit in one.
 */
const required = { timezone: 'Z', supportBigNumbers: true, bigNumberStrings: false } as const satisfies PoolOptions

/**
 * Connects to MySQL/MariaDB with a URI, a pool config, or a mysql2 pool you
 * already have (created from `mysql2`, not `mysql2/promise`, with
 * `timezone: 'Z'`). A pool the adapter created is ended by `close()`.
 *
 * @example
 * const auth = createAuth({ database: mysqlAdapter('mysql://root@localhost:3306/app') })
 */
export function mysqlAdapter(uriOrPoolOrConfig: string | Pool | PoolOptions): AdapterFactory {
  return ({ schema }) => {
    const source = uriOrPoolOrConfig
    const owned = !isPool(source)
    const pool = isPool(source)
      ? source
      : createPool(typeof source === 'string' ? { uri: source, ...required } : { ...source, ...required })
    const db = new Kysely<Tables>({ dialect: new MysqlDialect({ pool }) })
    return createKyselyAdapter({ db, dialect: 'mysql', ownsConnection: owned }, schema)
  }
}
