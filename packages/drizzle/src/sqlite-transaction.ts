/**
 * @module
 * Transactions on better-sqlite3 that may await between statements: the
 * adapter's queue (queue.ts) keeps its other statements out meanwhile.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { LooseDatabase } from './provider.js'

/**
 * A transaction on better-sqlite3, whose drizzle transactions cannot await:
 * BEGIN, the work, then COMMIT, or ROLLBACK and the work's error unchanged.
 */
export async function sqliteTransaction<R>(db: LooseDatabase, work: (q: LooseDatabase) => Promise<R>): Promise<R> {
  const execute = (statement: SQL) => {
    if (!db.run) throw new TypeError('drizzleAdapter: a sqlite database needs run(); pass the drizzle-orm/better-sqlite3 database')
    return db.run(statement)
  }
  const rollBack = () => {
    try {
      execute(sql`rollback`)
    } catch {
      // SQLite already rolled back (after SQLITE_FULL, say): the error being rethrown says why.
    }
  }
  execute(sql`begin`)
  try {
    const result = await work(db)
    execute(sql`commit`)
    return result
  } catch (error) {
    rollBack()
    throw error
  }
}
