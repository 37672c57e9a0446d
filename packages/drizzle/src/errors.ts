/**
 * @module
 * What a failed Drizzle query becomes: core's `DatabaseError` where core's
 * mapping knows the driver's error, else an error that names the SQL only.
 */
import { toDatabaseError, type SqlDialect } from '@gatehouse/core'
import { DrizzleQueryError } from 'drizzle-orm'

/**
 * A driver error as `DatabaseError` when core's mapping knows it (a
 * constraint violation, a deadlock, a lost connection); Drizzle wraps the
 * driver's error in `DrizzleQueryError`, whose `cause` is what core reads.
 * Any other failed query becomes an error naming the SQL but not its
 * parameters, which hold password hashes, emails and token hashes that a
 * log line must not carry; the driver's error stays as `cause`.
 */
export function databaseError(error: unknown, dialect: SqlDialect, model?: string): unknown {
  if (!(error instanceof DrizzleQueryError)) return toDatabaseError(error, dialect, model)
  const mapped = toDatabaseError(error.cause, dialect, model)
  if (mapped !== error.cause) return mapped
  const reason = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return new Error(`Failed query${model === undefined ? '' : ` on "${model}"`}${reason}\n${error.query}`, { cause: error.cause })
}
