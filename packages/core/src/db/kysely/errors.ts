/**
 * @module
 * Maps constraint violations from better-sqlite3, pg and mysql2 to
 * `DatabaseError`, so core can answer "User already exists" on a unique
 * violation without knowing any driver's error shape. Errors that are not
 * constraint violations (syntax, connection) are passed through unchanged.
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

// https://www.sqlite.org/rescode.html#constraint — better-sqlite3 exposes the extended code as a string.
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
  UNKNOWN: 'Database error',
}

/** The `DatabaseError` code for a driver error, or undefined when it is not a constraint violation. */
export function constraintCode(error: unknown, dialect: SqlDialect): DatabaseErrorCode | undefined {
  switch (dialect) {
    case 'sqlite': {
      const code = property(error, 'code')
      return typeof code === 'string' ? sqliteCodes[code] : undefined
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
 * Wraps a constraint violation in `DatabaseError` (the driver error stays as
 * `cause`); returns any other error as it is.
 *
 * @example
 * try { await query() } catch (error) { throw toDatabaseError(error, 'postgres', 'user') }
 */
export function toDatabaseError(error: unknown, dialect: SqlDialect, model?: string): unknown {
  if (error instanceof DatabaseError) return error
  const code = constraintCode(error, dialect)
  if (!code) return error
  const where = model === undefined ? '' : ` on "${model}"`
  return new DatabaseError(code, `${messages[code]}${where}`, { cause: error })
}
