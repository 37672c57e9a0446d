/**
 * @module
 * Prepared reads, by shape. Building a statement with Drizzle's query
 * builder (and preparing it again in better-sqlite3) cost several times the
 * query itself on get-session's one-row read (bench/README.md#drizzle-issue-27). Reads
 * outside a transaction are therefore prepared once per shape (model, joins,
 * where shape, sort, page: what the SQL text depends on) with placeholders,
 * and run with each call's values. Transactions build their statements as
 * they go: a prepared statement belongs to the database it was made on.
 */
import { randomBytes } from 'node:crypto'
import type { LoosePrepared, LooseQuery, Provider } from './provider.js'

/** Enough for every read shape Gatehouse and its plugins make; a cache past it is cleared rather than grown. */
const MAX_STATEMENTS = 500

export interface StatementCache {
  /** The statement for `key`, prepared from `build()` on first use. */
  get(key: string, build: () => LooseQuery): LoosePrepared
}

/**
 * @example
 * const statements = createStatementCache()
 * const statement = statements.get(key, () => db.select(fields).from(table).where(condition))
 */
export function createStatementCache(): StatementCache {
  const statements = new Map<string, LoosePrepared>()
  // PostgreSQL names prepared statements per connection; a prefix per adapter keeps two adapters on one pool apart.
  const prefix = `gatehouse_${randomBytes(4).toString('hex')}_`
  let made = 0
  return {
    get(key, build) {
      let statement = statements.get(key)
      if (!statement) {
        if (statements.size >= MAX_STATEMENTS) statements.clear()
        statement = build().prepare(`${prefix}${made++}`)
        statements.set(key, statement)
      }
      return statement
    },
  }
}

/** Runs a prepared statement with its placeholders' values (`p0`, `p1`, … in order). */
export function runPrepared(provider: Provider, statement: LoosePrepared, values: readonly unknown[]): unknown {
  const named: Record<string, unknown> = {}
  for (const [index, value] of values.entries()) named[`p${index}`] = value
  if (provider === 'sqlite' && statement.all) return statement.all(named)
  return statement.execute(named)
}
