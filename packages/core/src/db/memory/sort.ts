/**
 * @module
 * Ordering and paging for the in-memory adapter's `findMany`. Strings sort
 * by UTF-16 code unit (SQL's binary collation), dates by time, false before
 * true, and nulls first in ascending order (as SQLite and MySQL do; the
 * conformance suite leaves null order to each backend).
 */
import type { Row, SortBy } from '../adapter.js'

/** A new array sorted by the keys in order; rows that tie on every key keep their order. */
export function sortRows(rows: readonly Row[], sortBy: SortBy | readonly SortBy[] | undefined): Row[] {
  const keys: readonly SortBy[] = sortBy === undefined ? [] : isSortList(sortBy) ? sortBy : [sortBy]
  if (keys.length === 0) return [...rows]
  return [...rows].sort((left, right) => {
    for (const { field, direction } of keys) {
      const order = compareValues(left[field], right[field])
      if (order !== 0) return direction === 'desc' ? -order : order
    }
    return 0
  })
}

/** Applies `offset` then `limit`, both checked to be non-negative integers. */
export function pageRows(rows: Row[], limit: number | undefined, offset: number | undefined): Row[] {
  const start = checkCount('offset', offset) ?? 0
  const count = checkCount('limit', limit)
  return rows.slice(start, count === undefined ? undefined : start + count)
}

function isSortList(sortBy: SortBy | readonly SortBy[]): sortBy is readonly SortBy[] {
  return Array.isArray(sortBy)
}

function checkCount(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, received ${String(value)}`)
  return value
}

function compareValues(left: unknown, right: unknown): number {
  const a = left instanceof Date ? left.getTime() : left
  const b = right instanceof Date ? right.getTime() : right
  const aNull = a === null || a === undefined
  const bNull = b === null || b === undefined
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? -1 : 1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b)
  const x = String(a)
  const y = String(b)
  return x < y ? -1 : x > y ? 1 : 0
}
