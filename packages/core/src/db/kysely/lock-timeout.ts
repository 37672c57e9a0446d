/**
 * @module
 * The bound on how long a Gatehouse statement waits for a row lock
 * (docs/adapters.md#transactions). Gatehouse's transactions never join the
 * application's, so a request that touches a row the application's own open
 * transaction locked waits, on another connection, for a lock that is only
 * released once that request returns: without a bound, forever. The server
 * ends the wait with its lock-timeout error (PostgreSQL 55P03, MySQL 1205),
 * which errors.ts maps to `TRANSIENT`: 503 with Retry-After.
 */

/** Ten seconds: far above any lock Gatehouse holds itself (a few statements), far below a request that never ends. */
export const DEFAULT_LOCK_TIMEOUT = 10_000

/**
 * The `lockTimeout` option as milliseconds: a whole number, 0 for "the server's setting".
 *
 * @example
 * lockTimeoutMillis(undefined, 'postgresAdapter') // 10000
 */
export function lockTimeoutMillis(value: number | undefined, caller: string): number {
  if (value === undefined) return DEFAULT_LOCK_TIMEOUT
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`${caller}: lockTimeout must be a whole number of milliseconds (0 for the server's setting), not ${String(value)}`)
  }
  return value
}

/**
 * The statement setting it for a connection's session: `lock_timeout` in
 * milliseconds on PostgreSQL; on MySQL and MariaDB `innodb_lock_wait_timeout`,
 * counted in whole seconds (at least 1). Undefined for 0.
 *
 * @example
 * sessionLockTimeout('mysql', 10_000) // 'set session innodb_lock_wait_timeout = 10'
 */
export function sessionLockTimeout(dialect: 'postgres' | 'mysql', millis: number): string | undefined {
  if (millis === 0) return undefined
  return dialect === 'postgres' ? `set lock_timeout = ${millis}` : `set session innodb_lock_wait_timeout = ${Math.max(1, Math.ceil(millis / 1000))}`
}
