/**
 * @module
 * The five Drizzle drivers the adapter speaks to, and what differs between
 * them: the dialect core's error mapping reads, whether a statement can
 * return the rows it wrote, how the count of affected rows comes back, and
 * the one loose view of a Drizzle database the queries are written against
 * (docs/adapters.md#using-drizzle).
 */
import type { SqlDialect } from '@gatehouse/core'
import { entityKind, type Column, type Placeholder, type SQL, type Table } from 'drizzle-orm'
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import type { LibSQLDatabase } from 'drizzle-orm/libsql'
import type { MySql2Database } from 'drizzle-orm/mysql2'
import type { NodePgDatabase } from 'drizzle-orm/node-postgres'
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js'

/**
 * The database behind the driver: `pg` for `drizzle-orm/node-postgres` and
 * `drizzle-orm/postgres-js`, `mysql` for `drizzle-orm/mysql2` (MySQL or
 * MariaDB), `sqlite` for `drizzle-orm/better-sqlite3` and `drizzle-orm/libsql`.
 */
export type Provider = 'pg' | 'mysql' | 'sqlite'

/** The Drizzle driver a database was made with, read from the database object itself. */
export type Driver = 'node-postgres' | 'postgres-js' | 'mysql2' | 'better-sqlite3' | 'libsql'

/**
 * A Drizzle database on one of the five drivers, whatever schema it was
 * typed with. The adapter only runs queries on tables it is given.
 */
export type DrizzleDatabase =
  | NodePgDatabase<Record<string, unknown>>
  | PostgresJsDatabase<Record<string, unknown>>
  | MySql2Database<Record<string, unknown>>
  | BetterSQLite3Database<Record<string, unknown>>
  | LibSQLDatabase<Record<string, unknown>>

export const DIALECTS: Readonly<Record<Provider, SqlDialect>> = { pg: 'postgres', mysql: 'mysql', sqlite: 'sqlite' }

/** Drizzle's class name (its `entityKind`) for each supported database, and the driver and provider it stands for. */
const DRIVERS: Readonly<Record<string, { readonly driver: Driver; readonly provider: Provider }>> = {
  NodePgDatabase: { driver: 'node-postgres', provider: 'pg' },
  PostgresJsDatabase: { driver: 'postgres-js', provider: 'pg' },
  MySql2Database: { driver: 'mysql2', provider: 'mysql' },
  BetterSQLite3Database: { driver: 'better-sqlite3', provider: 'sqlite' },
  LibSQLDatabase: { driver: 'libsql', provider: 'sqlite' },
}

const SUPPORTED = "node-postgres or postgres-js (provider 'pg'), mysql2 ('mysql'), better-sqlite3 or libsql ('sqlite')"

/**
 * The driver of `db`, checked against the provider the application named:
 * an unsupported driver (whose results the adapter would misread, a count
 * of written rows for one) or a mismatched provider fails at start-up.
 *
 * @example
 * detectDriver(drizzle(postgres(url)), 'pg') // 'postgres-js'
 */
export function detectDriver(db: unknown, provider: Provider): Driver {
  const constructor: unknown = typeof db === 'object' && db !== null ? Reflect.get(db, 'constructor') : undefined
  const kind: unknown = typeof constructor === 'function' ? Reflect.get(constructor, entityKind) : undefined
  const found = typeof kind === 'string' && Object.hasOwn(DRIVERS, kind) ? DRIVERS[kind] : undefined
  if (!found) {
    const name = typeof kind === 'string' ? `a ${kind}` : 'not a Drizzle database'
    throw new TypeError(`drizzleAdapter: the database is ${name}; the supported drivers are ${SUPPORTED} (docs/adapters.md#using-drizzle)`)
  }
  if (found.provider !== provider) {
    throw new TypeError(`drizzleAdapter: the database runs on ${found.driver}, whose provider is '${found.provider}', not ${JSON.stringify(provider)}`)
  }
  return found.driver
}

/** PostgreSQL and SQLite (3.35+) return the rows a statement wrote; MySQL needs a follow-up select. */
export function supportsReturning(provider: Provider): boolean {
  return provider !== 'mysql'
}

/** Where each driver's result of a write holds the count of rows it affected. */
const AFFECTED: Readonly<Record<Driver, string>> = {
  'node-postgres': 'rowCount',
  'postgres-js': 'count',
  // Matched rows, not only changed ones: mysql2 connects with FOUND_ROWS.
  mysql2: 'affectedRows',
  'better-sqlite3': 'changes',
  libsql: 'rowsAffected',
}

/**
 * Rows a write affected, from each driver's own result: node-postgres's
 * `rowCount`, postgres-js's `count`, mysql2's `[ResultSetHeader]`,
 * better-sqlite3's `changes`, libsql's `rowsAffected`.
 *
 * @example
 * affectedRows('postgres-js', await db.update(user).set(values)) // 14
 */
export function affectedRows(driver: Driver, result: unknown): number {
  const header: unknown = driver === 'mysql2' && Array.isArray(result) ? result[0] : result
  if (typeof header !== 'object' || header === null) return 0
  return Number(Reflect.get(header, AFFECTED[driver]) ?? 0)
}

/** A query builder at any stage: every call returns the builder, awaiting it runs the statement. */
export interface LooseQuery extends PromiseLike<unknown> {
  /** What makes a select usable as a subquery (`id in (select …)`). */
  getSQL(): SQL
  where(condition: SQL | undefined): LooseQuery
  orderBy(...columns: SQL[]): LooseQuery
  limit(count: number | Placeholder): LooseQuery
  offset(count: number | Placeholder): LooseQuery
  leftJoin(table: Table, on: SQL): LooseQuery
  for(strength: 'update'): LooseQuery
  values(values: Record<string, unknown>): LooseQuery
  set(values: Record<string, unknown>): LooseQuery
  /** The written rows, read under the selection's keys. */
  returning(fields?: Readonly<Record<string, Column>>): LooseQuery
  /** A prepared statement (a name is required on PostgreSQL, where it names the server-side statement). */
  prepare(name?: string): LoosePrepared
}

/** A prepared query: `execute` on PostgreSQL and MySQL, `all` on SQLite (synchronous on better-sqlite3). */
export interface LoosePrepared {
  execute(values?: Readonly<Record<string, unknown>>): unknown
  all?(values?: Readonly<Record<string, unknown>>): unknown
}

/** The Drizzle database (or transaction) as the adapter uses it. */
export interface LooseDatabase {
  select(fields?: Readonly<Record<string, unknown>>): { from(table: Table): LooseQuery }
  insert(table: Table): LooseQuery
  update(table: Table): LooseQuery
  delete(table: Table): LooseQuery
  transaction<R>(fn: (tx: LooseDatabase) => Promise<R>, config?: Readonly<Record<string, unknown>>): Promise<R>
  /** SQLite: one statement, no rows (synchronous on better-sqlite3). */
  run?(query: SQL): unknown
  /** PostgreSQL and MySQL: one raw statement. */
  execute?(query: SQL): PromiseLike<unknown>
}

/**
 * The drivers' databases share the query builder's run-time shape but not
 * its types, whose generics differ per dialect down to every method: a call
 * through the union does not type-check. The adapter builds its queries
 * from the schema at run time, so it reads them through one loose view.
 */
export function looseDatabase(db: DrizzleDatabase): LooseDatabase {
  return db as unknown as LooseDatabase
}
