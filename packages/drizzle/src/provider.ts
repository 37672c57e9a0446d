/**
 * @module
 * The three Drizzle drivers the adapter speaks to, and what differs between
 * them: the dialect core's error mapping reads, whether a statement can
 * return the rows it wrote, how the count of affected rows comes back, and
 * the one loose view of a Drizzle database the queries are written against.
 */
import type { SqlDialect } from '@gatehouse/core'
import type { SQL, Table } from 'drizzle-orm'
import type { MySql2Database } from 'drizzle-orm/mysql2'
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import type { NodePgDatabase } from 'drizzle-orm/node-postgres'

/** `pg`: `drizzle-orm/node-postgres`; `mysql`: `drizzle-orm/mysql2` (MySQL or MariaDB); `sqlite`: `drizzle-orm/better-sqlite3`. */
export type Provider = 'pg' | 'mysql' | 'sqlite'

/**
 * A Drizzle database on one of the three drivers, whatever schema it was
 * typed with. The adapter only runs queries on tables it is given.
 */
export type DrizzleDatabase =
  | NodePgDatabase<Record<string, unknown>>
  | MySql2Database<Record<string, unknown>>
  | BetterSQLite3Database<Record<string, unknown>>

export const DIALECTS: Readonly<Record<Provider, SqlDialect>> = { pg: 'postgres', mysql: 'mysql', sqlite: 'sqlite' }

/** PostgreSQL and SQLite (3.35+) return the rows a statement wrote; MySQL needs a follow-up select. */
export function supportsReturning(provider: Provider): boolean {
  return provider !== 'mysql'
}

/**
 * Rows a write affected, from each driver's own result: node-postgres's
 * `rowCount`, mysql2's `[ResultSetHeader]` (matched rows: mysql2 connects
 * with FOUND_ROWS), better-sqlite3's `changes`.
 */
export function affectedRows(provider: Provider, result: unknown): number {
  const header: unknown = provider === 'mysql' && Array.isArray(result) ? result[0] : result
  if (typeof header !== 'object' || header === null) return 0
  const key = provider === 'pg' ? 'rowCount' : provider === 'mysql' ? 'affectedRows' : 'changes'
  return Number(Reflect.get(header, key) ?? 0)
}

/** A query builder at any stage: every call returns the builder, awaiting it runs the statement. */
export interface LooseQuery extends PromiseLike<unknown> {
  /** What makes a select usable as a subquery (`id in (select …)`). */
  getSQL(): SQL
  where(condition: SQL | undefined): LooseQuery
  orderBy(...columns: SQL[]): LooseQuery
  limit(count: number): LooseQuery
  offset(count: number): LooseQuery
  leftJoin(table: Table, on: SQL): LooseQuery
  for(strength: 'update'): LooseQuery
  values(values: Record<string, unknown>): LooseQuery
  set(values: Record<string, unknown>): LooseQuery
  returning(): LooseQuery
  /** A prepared statement (a name is required on PostgreSQL, where it names the server-side statement). */
  prepare(name?: string): LoosePrepared
}

/** A prepared query: `execute` on PostgreSQL and MySQL, `all` (synchronous) on better-sqlite3. */
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
  run?(query: SQL): unknown
}

/**
 * The three drivers' databases share the query builder's run-time shape but
 * not its types, whose generics differ per dialect down to every method: a
 * call through the union does not type-check. The adapter builds its queries
 * from the schema at run time, so it reads them through one loose view.
 */
export function looseDatabase(db: DrizzleDatabase): LooseDatabase {
  return db as unknown as LooseDatabase
}
