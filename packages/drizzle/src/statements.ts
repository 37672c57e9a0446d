/**
 * @module
 * Prepared reads, by shape. Building a statement with Drizzle's query
 * builder (and preparing it again in better-sqlite3) cost several times the
 * query itself on get-session's one-row read (bench/README.md#drizzle-issue-27). Reads
 * outside a transaction are therefore prepared once per shape (model, joins,
 * where shape, sort, whether there is a limit and an offset: what the SQL
 * text depends on) with placeholders, and run with each call's values. The
 * values themselves, `limit` and `offset` included, never enter the shape,
 * and `in` lists are padded to a power of two (where.ts), so paging through
 * a table reuses one statement.
 *
 * On node-postgres a prepared statement is named and lives on every
 * connection that ran it until the connection ends. The cache holds at most
 * `MAX_STATEMENTS` shapes and never renames one, so each connection holds at
 * most that many; a shape past the cap runs as an unnamed statement, which
 * the server does not keep. Transactions build their statements as they go:
 * a prepared statement belongs to the database it was made on.
 */
import { randomBytes } from 'node:crypto'
import type { LoosePrepared, LooseQuery, Provider } from './provider.js'

/** Far more than every read shape Gatehouse and its plugins make; the bound on named statements per connection. */
export const MAX_STATEMENTS = 500

export interface StatementCache {
  /** The statement for `key`, prepared from `build()` on first use; past the cap, prepared unnamed and not kept. */
  get(key: string, build: () => LooseQuery): LoosePrepared
}

/**
 * @example
 * const statements = createStatementCache()
 * const statement = statements.get(key, () => db.select(fields).from(table).where(condition))
 */
export function createStatementCache(max = MAX_STATEMENTS): StatementCache {
  const statements = new Map<string, LoosePrepared>()
  // PostgreSQL names prepared statements per connection; a prefix per adapter keeps two adapters on one pool apart.
  const prefix = `gatehouse_${randomBytes(4).toString('hex')}_`
  return {
    get(key, build) {
      const cached = statements.get(key)
      if (cached) return cached
      // A name is never given to another SQL text (node-postgres refuses that), so a full cache stops naming instead.
      if (statements.size >= max) return build().prepare()
      const statement = build().prepare(`${prefix}${statements.size}`)
      statements.set(key, statement)
      return statement
    },
  }
}

/** Runs a prepared statement with its placeholders' values (`p0`, `p1`, … in order) and any named ones (`limit`, `offset`). */
export function runPrepared(provider: Provider, statement: LoosePrepared, values: readonly unknown[], extra: Readonly<Record<string, unknown>> = {}): unknown {
  const named: Record<string, unknown> = { ...extra }
  for (const [index, value] of values.entries()) named[`p${index}`] = value
  if (provider === 'sqlite' && statement.all) return statement.all(named)
  return statement.execute(named)
}
