/**
 * @module
 * What a failed Prisma Client call becomes: core's `DatabaseError` where the
 * failure has a meaning core acts on (docs/adapters.md#transient-faults),
 * the error unchanged otherwise. Prisma reports by its own codes
 * (`P2002`…); with a driver adapter the driver's code also travels along
 * (`meta.driverAdapterError.cause.originalCode`), which core's mapping for
 * `pg`, `mysql2` and `better-sqlite3` reads as it reads theirs.
 */
import { DatabaseError, toDatabaseError, type DatabaseErrorCode } from '@gatehouse/core'
import { DIALECTS, type PrismaProvider } from './client.js'

// https://www.prisma.io/docs/orm/reference/error-reference
const PRISMA_CODES: Readonly<Record<string, DatabaseErrorCode>> = {
  P2002: 'UNIQUE_VIOLATION',
  P2003: 'FOREIGN_KEY_VIOLATION',
  P2011: 'NOT_NULL_VIOLATION',
  P2034: 'DEADLOCK', // a write conflict or deadlock: run the transaction again
  P1001: 'TRANSIENT', // the database server cannot be reached
  P1002: 'TRANSIENT', // reached, but timed out
  P1008: 'TRANSIENT', // an operation timed out
  P1017: 'TRANSIENT', // the server closed the connection
  P2024: 'TRANSIENT', // no connection from the pool in time
  P2028: 'TRANSIENT', // the interactive transaction could not start in maxWait or outlived its timeout
}

function property(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined
}

/** The driver's own error code, when a driver adapter passed it on. */
function driverCode(error: unknown): unknown {
  return property(property(property(property(error, 'meta'), 'driverAdapterError'), 'cause'), 'originalCode')
}

/**
 * `error` as `DatabaseError` when it is a constraint violation, a deadlock
 * or a fault worth retrying later, with `error` as its cause; else `error`.
 *
 * @example
 * databaseError(prismaP2002, 'postgresql', 'user') // DatabaseError { code: 'UNIQUE_VIOLATION' }
 */
export function databaseError(error: unknown, provider: PrismaProvider, model?: string): unknown {
  if (error instanceof DatabaseError) return error
  const where = model === undefined ? '' : ` on "${model}"`
  const own = property(error, 'code') ?? property(error, 'errorCode')
  const code = typeof own === 'string' ? PRISMA_CODES[own] : undefined
  if (code) return new DatabaseError(code, `Prisma ${String(own)}: ${code}${where}`, { cause: error })
  const original = driverCode(error)
  if (original !== undefined) {
    // pg and better-sqlite3 name their errors by `code`, mysql2 and mariadb by `errno`.
    const mapped = toDatabaseError({ code: String(original), errno: Number(original) }, DIALECTS[provider], model)
    if (mapped instanceof DatabaseError) return new DatabaseError(mapped.code, mapped.message, { cause: error })
  }
  // A socket error from the driver, not wrapped by Prisma (ECONNREFUSED and the like).
  const mapped = toDatabaseError(property(error, 'cause') ?? error, DIALECTS[provider], model)
  return mapped instanceof DatabaseError ? new DatabaseError(mapped.code, mapped.message, { cause: error }) : error
}

/** Prisma's "no record found" for `update` on a row that no longer matches. */
export function isNotFound(error: unknown): boolean {
  return property(error, 'code') === 'P2025'
}
