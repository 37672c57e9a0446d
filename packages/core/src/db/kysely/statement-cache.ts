/**
 * @module
 * Compiled SQL reused by shape. Building a statement with Kysely's `sql`
 * tag and compiling it (freezing every node, visiting the tree, quoting each
 * identifier) costs more than running a small indexed query, and the adapter
 * asks the same few questions on every request: "the session with this token
 * hash, joined with its user" differs from one request to the next only in
 * the hash. So each statement gets a shape key naming everything its SQL
 * text depends on (where-sql.ts `whereShape`, select-sql.ts), and the values
 * are computed beside the key on every call; the text is compiled once per
 * shape, by the same builders as before, and bound with each call's values.
 *
 * The values must land where the compiled text expects them. On every miss
 * the statement is built with the call's values inline and compiled by
 * Kysely, and its parameter list is compared with the computed one; only an
 * exact match is cached. A mismatch (a shape walk out of step with its
 * builder) answers with Kysely's own compile, correct by construction, and
 * is counted so tests catch it.
 */
import { CompiledQuery, type QueryExecutorProvider, type RawBuilder } from 'kysely'

/** Distinct shapes kept per adapter; Gatehouse issues a few dozen, pagination a few more. */
export const DEFAULT_STATEMENT_CACHE_SIZE = 512

export interface StatementCacheStats {
  /** Calls answered from a cached text. */
  readonly hits: number
  /** Calls that compiled, cached or not. */
  readonly misses: number
  /** Misses whose computed values disagreed with the compile: never cached. Zero unless a shape walk has a bug. */
  readonly mismatches: number
  /** Shapes held now. */
  readonly size: number
}

export interface StatementCache {
  /**
   * The statement of shape `key` with `parameters` bound (the array becomes
   * the statement's). `build` makes the statement with the same values
   * inline; it runs only on a miss.
   */
  compile(key: string, parameters: unknown[], build: () => RawBuilder<unknown>, compiler: QueryExecutorProvider): CompiledQuery
  stats(): StatementCacheStats
}

/**
 * A bounded LRU of SQL texts by shape key.
 *
 * @example
 * const cache = createStatementCache()
 * const values: unknown[] = []
 * const key = `count|user|${whereShape(context, where, values)}`
 * const { rows } = await db.executeQuery(cache.compile(key, values, () => sql`select count(*) ...`, db))
 */
export function createStatementCache(capacity = DEFAULT_STATEMENT_CACHE_SIZE): StatementCache {
  const texts = new Map<string, string>()
  let hits = 0
  let misses = 0
  let mismatches = 0
  return {
    compile(key, parameters, build, compiler) {
      const text = texts.get(key)
      if (text !== undefined) {
        hits++
        // Re-inserting marks the entry most recently used: Map iterates in insertion order.
        texts.delete(key)
        texts.set(key, text)
        return CompiledQuery.raw(text, parameters)
      }
      misses++
      const compiled = build().compile(compiler)
      if (!sameParameters(compiled.parameters, parameters)) {
        mismatches++
        return compiled
      }
      texts.set(key, compiled.sql)
      if (texts.size > capacity) {
        const oldest = texts.keys().next()
        if (!oldest.done) texts.delete(oldest.value)
      }
      return compiled
    },
    stats: () => ({ hits, misses, mismatches, size: texts.size }),
  }
}

function sameParameters(compiled: readonly unknown[], computed: readonly unknown[]): boolean {
  if (compiled.length !== computed.length) return false
  return compiled.every((value, index) => sameValue(value, computed[index]))
}

/** Dates are built anew on each conversion, so two for one instant are the same value. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime()
  return Object.is(a, b)
}
