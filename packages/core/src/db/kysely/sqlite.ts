/**
 * @module
 * `@gatehouse/core/adapters/sqlite`: the Kysely adapter on better-sqlite3.
 * A file path is all it needs. Imports better-sqlite3 only, never pg or mysql2.
 */
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely'
import { withDialect, type AdapterFactory } from '../adapter.js'
import { createKyselyAdapter } from './kysely-adapter.js'
import { withJsRows } from './sqlite-rows.js'

export interface SqliteAdapterOptions {
  /** How long a write waits for another process's lock before failing with SQLITE_BUSY, in ms. Defaults to 5000. */
  readonly busyTimeout?: number | undefined
  /**
   * The better-sqlite3 addon file (`better_sqlite3.node`), for a server that
   * bundles better-sqlite3's JavaScript: bundled, the package can no longer
   * find its addon beside itself. Used only when the adapter opens the file.
   */
  readonly nativeBinding?: string | undefined
}

type Tables = Record<string, Record<string, unknown>>

/**
 * Opens (or takes) a SQLite database. Given a path, the adapter opens the
 * file itself — `':memory:'` for a throwaway database — switches it to WAL
 * (readers do not block the writer), turns on foreign keys (off by default in
 * SQLite, and the cascades of sessions and accounts rely on them) and sets a
 * busy timeout; `close()` closes it. A relative path resolves against the
 * process's working directory, and the file's folder is created when missing
 * (docs/adapters.md#built-in-adapters). Given an open `Database`, the adapter leaves its
 * settings and lifetime to the caller, who should enable `foreign_keys` on it.
 *
 * @example
 * const auth = createAuth({ database: sqliteAdapter('./data/auth.db') })
 * await runMigrations(auth)
 */
export function sqliteAdapter(pathOrDatabase: string | Database.Database, options: SqliteAdapterOptions = {}): AdapterFactory {
  return withDialect('sqlite', ({ schema }) => {
    const owned = typeof pathOrDatabase === 'string'
    const database = owned ? openFile(pathOrDatabase, options) : pathOrDatabase
    if (owned) {
      database.pragma('journal_mode = WAL')
      database.pragma('foreign_keys = ON')
      database.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeout ?? 5000))}`)
    }
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) })
    return createKyselyAdapter({ db, dialect: 'sqlite', ownsConnection: owned }, schema)
  })
}

/**
 * Opens the file, creating its folder first: better-sqlite3 refuses a path
 * whose folder does not exist, with a message that does not name the path.
 */
function openFile(path: string, options: SqliteAdapterOptions): Database.Database {
  const inMemory = path === ':memory:' || path === '' || path.startsWith('file:')
  if (!inMemory) mkdirSync(dirname(resolve(path)), { recursive: true })
  try {
    return new Database(path, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding })
  } catch (error) {
    throw new Error(`Cannot open the SQLite database ${inMemory ? path : resolve(path)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than
 * running a small indexed query. Gatehouse issues a few dozen distinct SQL
 * strings, so a small LRU of prepared statements removes that cost from
 * every request. Safe because the driver runs one query at a time on its one
 * connection and never leaves a statement mid-iteration.
 */
export function withStatementCache(database: Database.Database, capacity = 256): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>()
  return {
    close: () => {
      cache.clear()
      database.close()
    },
    prepare(sql) {
      const cached = cache.get(sql)
      if (cached) {
        cache.delete(sql)
        cache.set(sql, cached)
        return cached
      }
      // Rows made in JavaScript (sqlite-rows.ts): the same objects, at a fraction of the native cost.
      const statement = withJsRows(database.prepare(sql))
      cache.set(sql, statement)
      if (cache.size > capacity) {
        const oldest = cache.keys().next()
        if (!oldest.done) cache.delete(oldest.value)
      }
      return statement
    },
  }
}
