/**
 * @module
 * Maps constraint violations from better-sqlite3, pg and mysql2 to
 * `DatabaseError`, so core can answer "User already exists" on a unique
 * violation without knowing any driver's error shape. Deadlocks and
 * serialization failures become `DEADLOCK`, and failures that say nothing
 * about the data (a lock wait timed out, the connection dropped, the server
 * is going away) become `TRANSIENT`, so a caller can tell "run it again" and
 * "try later" from "this will never work". Other errors (syntax, say) are
 * passed through unchanged.
 *
 * PostgreSQL aborts the surrounding transaction after any error: once a
 * statement inside `transaction(fn)` fails, every later statement in it fails
 * too. Catch `UNIQUE_VIOLATION` outside the transaction (or let it roll back).
 */
import { DatabaseError, type DatabaseErrorCode } from '../adapter.js'
import type { SqlDialect } from './dialect.js'

function property(error: unknown, key: string): unknown {
  if (typeof error !== 'object' || error === null || !(key in error)) return undefined
  return Reflect.get(error, key)
}

// https://www.sqlite.org/rescode.html#constraint — better-sqlite3 exposes the extended code as `code`, libsql's
// LibsqlError as `extendedCode` (its `code` is the primary one, SQLITE_CONSTRAINT).
const sqliteCodes: Readonly<Record<string, DatabaseErrorCode>> = {
  SQLITE_CONSTRAINT_UNIQUE: 'UNIQUE_VIOLATION',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'UNIQUE_VIOLATION',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'FOREIGN_KEY_VIOLATION',
  SQLITE_CONSTRAINT_NOTNULL: 'NOT_NULL_VIOLATION',
}

// PostgreSQL SQLSTATE class 23, "Integrity Constraint Violation" (Appendix A of the manual).
const postgresCodes: Readonly<Record<string, DatabaseErrorCode>> = {
  '23505': 'UNIQUE_VIOLATION',
  '23503': 'FOREIGN_KEY_VIOLATION',
  '23502': 'NOT_NULL_VIOLATION',
}

// MySQL/MariaDB server error numbers.
const mysqlCodes: Readonly<Record<number, DatabaseErrorCode>> = {
  1062: 'UNIQUE_VIOLATION', // ER_DUP_ENTRY
  1452: 'FOREIGN_KEY_VIOLATION', // ER_NO_REFERENCED_ROW_2: the referenced row is missing
  1451: 'FOREIGN_KEY_VIOLATION', // ER_ROW_IS_REFERENCED_2: a restricting row still points here
  1048: 'NOT_NULL_VIOLATION', // ER_BAD_NULL_ERROR
  1364: 'NOT_NULL_VIOLATION', // ER_NO_DEFAULT_FOR_FIELD: a NOT NULL column was left out (strict mode)
}

const messages: Readonly<Record<DatabaseErrorCode, string>> = {
  UNIQUE_VIOLATION: 'Unique constraint violated',
  FOREIGN_KEY_VIOLATION: 'Foreign key constraint violated',
  NOT_NULL_VIOLATION: 'Not-null constraint violated',
  DEADLOCK: 'Transaction rolled back by the database (deadlock or serialization failure)',
  TRANSIENT: 'Database temporarily unavailable',
  UNKNOWN: 'Database error',
}

// Transaction rollbacks the database asks the client to retry, and failures unrelated to the data.
// PostgreSQL: SQLSTATE class 40 "Transaction Rollback", 55P03 lock_not_available (lock_timeout),
// 57014 query_canceled (statement_timeout), class 57 shutdowns, 53300 too_many_connections, class 08
// "Connection Exception".
const postgresTransientCodes: Readonly<Record<string, DatabaseErrorCode>> = {
  '40001': 'DEADLOCK', // serialization_failure
  '40P01': 'DEADLOCK', // deadlock_detected
  '55P03': 'TRANSIENT',
  '57014': 'TRANSIENT',
  '57P01': 'TRANSIENT', // admin_shutdown
  '57P02': 'TRANSIENT', // crash_shutdown
  '57P03': 'TRANSIENT', // cannot_connect_now
  '53300': 'TRANSIENT',
  '08000': 'TRANSIENT',
  '08001': 'TRANSIENT',
  '08003': 'TRANSIENT',
  '08004': 'TRANSIENT',
  '08006': 'TRANSIENT',
}

const mysqlTransientCodes: Readonly<Record<number, DatabaseErrorCode>> = {
  1213: 'DEADLOCK', // ER_LOCK_DEADLOCK: InnoDB rolled the transaction back
  1205: 'TRANSIENT', // ER_LOCK_WAIT_TIMEOUT
  1040: 'TRANSIENT', // ER_CON_COUNT_ERROR: too many connections
  1053: 'TRANSIENT', // ER_SERVER_SHUTDOWN
  1927: 'TRANSIENT', // ER_CONNECTION_KILLED (MariaDB)
  1317: 'TRANSIENT', // ER_QUERY_INTERRUPTED: KILL QUERY, or a shutdown interrupting the statement
  2006: 'TRANSIENT', // CR_SERVER_GONE_ERROR
  2013: 'TRANSIENT', // CR_SERVER_LOST
}

// better-sqlite3: another process held the database past busy_timeout; a stale WAL snapshot must restart.
const sqliteTransientCodes: Readonly<Record<string, DatabaseErrorCode>> = {
  SQLITE_BUSY_SNAPSHOT: 'DEADLOCK',
  SQLITE_BUSY: 'TRANSIENT',
  SQLITE_BUSY_RECOVERY: 'TRANSIENT',
  SQLITE_BUSY_TIMEOUT: 'TRANSIENT',
  SQLITE_LOCKED: 'TRANSIENT',
  SQLITE_LOCKED_SHAREDCACHE: 'TRANSIENT',
}

// Socket errors from Node (any driver), mysql2's own code for a connection closed under it, and postgres-js's codes
// for a connection that closed, ended or never opened.
const connectionCodes: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
])

/**
 * Errors that carry no code: node-postgres reports a socket closed under a
 * query, a client that died earlier, and a pool checkout that timed out only
 * by message; mysql2 refuses commands on a connection it already saw close.
 * These texts are the drivers' own, stable across their releases.
 */
const connectionMessages =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect|Can't add new command when connection is in closed state)$/

/** A connection-level fault, whichever driver reports it (see `connectionCodes`, `connectionMessages`). */
function isConnectionFault(error: unknown, depth = 0): boolean {
  if (depth > 3 || typeof error !== 'object' || error === null) return false
  const code = property(error, 'code')
  if (typeof code === 'string' && connectionCodes.has(code)) return true
  const message = property(error, 'message')
  if (typeof message === 'string' && connectionMessages.test(message)) return true
  // Node's connect to a host name with several addresses fails with an AggregateError of each attempt.
  const inner = property(error, 'errors')
  return Array.isArray(inner) && inner.length > 0 && inner.every((each) => isConnectionFault(each, depth + 1))
}

/** SQLite's extended result code as a string, from better-sqlite3 (`code`) or libsql (`extendedCode`). */
function sqliteCode(error: unknown): string | undefined {
  const code = property(error, 'extendedCode') ?? property(error, 'code')
  return typeof code === 'string' ? code : undefined
}

/** The `DatabaseError` code for a driver error, or undefined when it is not a constraint violation. */
export function constraintCode(error: unknown, dialect: SqlDialect): DatabaseErrorCode | undefined {
  switch (dialect) {
    case 'sqlite': {
      const code = sqliteCode(error)
      return code === undefined ? undefined : sqliteCodes[code]
    }
    case 'postgres': {
      const code = property(error, 'code')
      return typeof code === 'string' ? postgresCodes[code] : undefined
    }
    case 'mysql': {
      const errno = property(error, 'errno')
      return typeof errno === 'number' ? mysqlCodes[errno] : undefined
    }
  }
}

/**
 * `DEADLOCK` or `TRANSIENT` for a driver error that says nothing about the
 * data, or undefined.
 *
 * @example
 * transientCode(Object.assign(new Error('deadlock detected'), { code: '40P01' }), 'postgres') // 'DEADLOCK'
 */
export function transientCode(error: unknown, dialect: SqlDialect): DatabaseErrorCode | undefined {
  const code = property(error, 'code')
  if (isConnectionFault(error)) return 'TRANSIENT'
  switch (dialect) {
    case 'sqlite': {
      const extended = sqliteCode(error)
      return extended === undefined ? undefined : sqliteTransientCodes[extended]
    }
    case 'postgres':
      return typeof code === 'string' ? postgresTransientCodes[code] : undefined
    case 'mysql': {
      const errno = property(error, 'errno')
      if (typeof errno === 'number' && mysqlTransientCodes[errno]) return mysqlTransientCodes[errno]
      // mysql2 marks an error that broke the connection itself as fatal; the pool drops that connection.
      return property(error, 'fatal') === true ? 'TRANSIENT' : undefined
    }
  }
}

/**
 * Wraps a constraint violation, a deadlock or a transient failure in
 * `DatabaseError` (the driver error stays as `cause`); returns any other
 * error as it is.
 *
 * @example
 * try { await query() } catch (error) { throw toDatabaseError(error, 'postgres', 'user') }
 */
export function toDatabaseError(error: unknown, dialect: SqlDialect, model?: string): unknown {
  if (error instanceof DatabaseError) return error
  const code = constraintCode(error, dialect) ?? transientCode(error, dialect)
  if (!code) return error
  const where = model === undefined ? '' : ` on "${model}"`
  // A constraint message may quote the row's values (an email); a deadlock's or a dropped connection's does not, and
  // it is what an operator needs to read in the log.
  const detail = code === 'DEADLOCK' || code === 'TRANSIENT' ? `: ${error instanceof Error ? error.message : String(error)}` : ''
  return new DatabaseError(code, `${messages[code]}${where}${detail}`, { cause: error })
}
