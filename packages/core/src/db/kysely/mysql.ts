/**
 * @module
 * `@gatehouse/core/adapters/mysql`: the Kysely adapter on a mysql2 pool, for
 * MySQL 8 and MariaDB 10.5+. Imports mysql2 only, never better-sqlite3 or pg.
 */
import { CompiledQuery, Kysely, MysqlDialect, type DatabaseConnection } from 'kysely'
import { createPool, type Pool, type PoolOptions } from 'mysql2'
import { withDialect, type AdapterFactory } from '../adapter.js'
import { createKyselyAdapter } from './kysely-adapter.js'
import { lockTimeoutMillis, sessionLockTimeout } from './lock-timeout.js'

type Tables = Record<string, Record<string, unknown>>

export interface MysqlAdapterOptions {
  /**
   * How long a statement waits for a row lock, in milliseconds (InnoDB
   * counts whole seconds, at least 1), before it fails with a `TRANSIENT`
   * DatabaseError (503 with Retry-After); `0` keeps the server's
   * `innodb_lock_wait_timeout` (50 s by default). Defaults to 10 000
   * (docs/adapters.md#transactions). Set on each connection the adapter uses,
   * a pool you pass in included.
   */
  readonly lockTimeout?: number | undefined
}

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
export function mysqlAdapter(uriOrPoolOrConfig: string | Pool | PoolOptions, options: MysqlAdapterOptions = {}): AdapterFactory {
  const lockTimeout = sessionLockTimeout('mysql', lockTimeoutMillis(options.lockTimeout, 'mysqlAdapter'))
  return withDialect('mysql', ({ schema }) => {
    const source = uriOrPoolOrConfig
    const owned = !isPool(source)
    const pool = isPool(source)
      ? source
      : createPool(typeof source === 'string' ? { uri: source, ...required } : { ...source, ...required })
    const onCreateConnection = async (connection: DatabaseConnection): Promise<void> => {
      await refuseNoBackslashEscapes(connection)
      if (lockTimeout !== undefined) await connection.executeQuery(CompiledQuery.raw(lockTimeout))
    }
    const db = new Kysely<Tables>({ dialect: new MysqlDialect({ pool, onCreateConnection }) })
    return createKyselyAdapter({ db, dialect: 'mysql', ownsConnection: owned }, schema)
  })
}

/**
 * mysql2's `query()`, which Kysely's MySQL dialect uses, writes parameters
 * into the SQL text and escapes quotes in them with a backslash. A server
 * session in `NO_BACKSLASH_ESCAPES` reads that backslash as a plain
 * character, so a quote in any value (an email, a name) would end its string
 * and the rest would run as SQL: injection. Every new connection is checked
 * once, before its first statement, and refused in that mode
 * (docs/adapters.md#dialect-notes).
 */
export async function refuseNoBackslashEscapes(connection: DatabaseConnection): Promise<void> {
  const result = await connection.executeQuery<{ mode: string | null }>(CompiledQuery.raw('SELECT @@SESSION.sql_mode AS mode'))
  const mode = result.rows[0]?.mode ?? ''
  if (mode.split(',').includes('NO_BACKSLASH_ESCAPES')) {
    throw new Error(
      'The MySQL session runs with sql_mode NO_BACKSLASH_ESCAPES, in which mysql2 cannot escape values safely: remove it from the server\'s or the pool\'s sql_mode (docs/adapters.md#dialect-notes)',
    )
  }
}
