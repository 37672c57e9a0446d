/**
 * @module
 * The conformance suite's own assertions. They throw
 * `ConformanceAssertionError`, so the cases run under any test runner (or
 * none) and a caller can tell "the adapter misbehaved" from "the adapter
 * crashed". Equality is strict about types on purpose: a backend that hands
 * back `1` for `true`, a string for a BIGINT or an ISO string for a date
 * fails here rather than in a handler much later.
 */
import { DatabaseError, type DatabaseErrorCode, type Row } from '../../db/adapter.js'

/**
 * The error every failed conformance check throws.
 *
 * @example
 * try { await conformanceCase.run() } catch (error) { if (error instanceof ConformanceAssertionError) console.log(error.message) }
 */
export class ConformanceAssertionError extends Error {
  override readonly name = 'ConformanceAssertionError'
}

export function fail(message: string): never {
  throw new ConformanceAssertionError(message)
}

export function ok(condition: unknown, message: string): asserts condition {
  if (!condition) fail(message)
}

/** Deep, type-strict equality; object key order is ignored (JSON columns reorder keys). */
export function isDeepEqual(actual: unknown, expected: unknown): boolean {
  if (expected instanceof Date) {
    return actual instanceof Date && actual.getTime() === expected.getTime()
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false
    return expected.every((item, index) => isDeepEqual(actual[index], item))
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual) || actual instanceof Date) return false
    const expectedKeys = Object.keys(expected).sort()
    const actualKeys = Object.keys(actual).sort()
    if (!isDeepEqual(actualKeys, expectedKeys)) return false
    const actualRecord = actual as Record<string, unknown>
    const expectedRecord = expected as Record<string, unknown>
    return expectedKeys.every((key) => isDeepEqual(actualRecord[key], expectedRecord[key]))
  }
  return Object.is(actual, expected) || (actual === 0 && expected === 0)
}

export function equal(actual: unknown, expected: unknown, message: string): void {
  if (!isDeepEqual(actual, expected)) {
    fail(`${message}\n  expected: ${describe(expected)}\n  received: ${describe(actual)}`)
  }
}

/** Asserts the rows are exactly the given ids, in any order. */
export function sameIds(rows: readonly Row[], ids: readonly string[], message: string): void {
  equal(rows.map((row) => row.id).sort(), [...ids].sort(), message)
}

/** Asserts the rows are exactly the given ids, in this order. */
export function orderedIds(rows: readonly Row[], ids: readonly string[], message: string): void {
  equal(
    rows.map((row) => row.id),
    ids,
    message,
  )
}

/** Awaits a promise that must reject; returns what it rejected with. */
export async function rejects(promise: Promise<unknown>, message: string): Promise<unknown> {
  try {
    const value = await promise
    return fail(`${message}: expected a rejection, but it resolved with ${describe(value)}`)
  } catch (error) {
    if (error instanceof ConformanceAssertionError) throw error
    return error
  }
}

/**
 * Awaits a promise that must resolve; a rejection (say a `DatabaseError` the
 * backend should not have raised) is reported as the adapter misbehaving.
 */
export async function resolves<T>(promise: Promise<T>, message: string): Promise<T> {
  try {
    return await promise
  } catch (error) {
    if (error instanceof ConformanceAssertionError) throw error
    const detail = error instanceof DatabaseError ? `DatabaseError ${error.code} (${error.message})` : describeError(error)
    return fail(`${message}: expected it to succeed, but it rejected with ${detail}`)
  }
}

/** Awaits a promise that must reject with a `DatabaseError` carrying `code`. */
export async function rejectsWithCode(promise: Promise<unknown>, code: DatabaseErrorCode, message: string): Promise<DatabaseError> {
  const error = await rejects(promise, message)
  if (!(error instanceof DatabaseError)) {
    return fail(`${message}: expected DatabaseError ${code}, received ${describeError(error)}`)
  }
  if (error.code !== code) fail(`${message}: expected DatabaseError ${code}, received DatabaseError ${error.code} (${error.message})`)
  return error
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  return describe(error)
}

/** A readable rendering that keeps the types visible: `Date(...)`, `"1"` versus `1`, `12n`. */
export function describe(value: unknown): string {
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'string') return JSON.stringify(value)
  if (value === undefined) return 'undefined'
  if (Array.isArray(value)) return `[${value.map(describe).join(', ')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${key}: ${describe(item)}`)
    return `{ ${entries.join(', ')} }`
  }
  return String(value)
}

/**
 * Asserts a row has exactly the expected fields (by field name, not column
 * name) with type-strict equal values, listing every field that differs.
 */
export function rowEqual(actual: unknown, expected: Row, message: string): void {
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
    fail(`${message}: expected a row, received ${describe(actual)}`)
  }
  const record = actual as Row
  const problems: string[] = []
  for (const [key, value] of Object.entries(expected)) {
    if (!(key in record)) problems.push(`field "${key}" is missing (expected ${describe(value)})`)
    else if (!isDeepEqual(record[key], value)) problems.push(`field "${key}": expected ${describe(value)}, received ${describe(record[key])}`)
  }
  for (const key of Object.keys(record)) {
    if (!(key in expected)) problems.push(`unexpected field "${key}" = ${describe(record[key])}`)
  }
  if (problems.length > 0) fail(`${message}\n  ${problems.join('\n  ')}`)
}
