/**
 * @module
 * The bound on a Gatehouse statement's wait for a row lock
 * (docs/adapters.md#transactions). Gatehouse's transactions do not join the
 * application's, so a request that touches a row the application's own open
 * transaction locked waits on another connection for a lock that is only
 * released when that request returns: without a bound, forever. The server
 * ends the wait with its lock-timeout error (PostgreSQL 55P03, MySQL 1205),
 * which core maps to a `TRANSIENT` DatabaseError: 503 with Retry-After.
 */
import { sql } from 'drizzle-orm'
import type { LooseDatabase, Provider } from './provider.js'

/**
 * Runs `work` in the open transaction `tx` with the lock timeout set: on
 * PostgreSQL `SET LOCAL`, which ends with the transaction; on MySQL for the
 * session (InnoDB has no per-transaction setting, and counts it in whole
 * seconds, at least 1), then back to the session's own value, because the
 * connection returns to the application's pool.
 *
 * @example
 * await db.transaction((tx) => withLockTimeout('pg', 10_000, tx, work))
 */
export async function withLockTimeout<R>(provider: Provider, millis: number, tx: LooseDatabase, work: (q: LooseDatabase) => Promise<R>): Promise<R> {
  if (millis === 0 || !tx.execute) return work(tx)
  if (provider === 'pg') {
    await tx.execute(sql`select set_config('lock_timeout', ${String(millis)}, true)`)
    return work(tx)
  }
  const seconds = Math.max(1, Math.ceil(millis / 1000))
  await tx.execute(sql.raw(`set @gatehouse_lock_wait = @@session.innodb_lock_wait_timeout, session innodb_lock_wait_timeout = ${seconds}`))
  const restore = () => tx.execute?.(sql.raw('set session innodb_lock_wait_timeout = @gatehouse_lock_wait'))
  let result: R
  try {
    result = await work(tx)
  } catch (error) {
    // The transaction is failing already (possibly with its connection): its own error is the one to report.
    await Promise.resolve(restore()).catch(() => undefined)
    throw error
  }
  await restore()
  return result
}
