/**
 * @module
 * Many-to-one joins for the in-memory adapter: after the base rows are
 * selected, each alias is filled by a lookup in the same `Tables` snapshot,
 * so base and joined rows come from one consistent state, as they do from
 * one SQL statement. A join on `id` is a map lookup; a join on another
 * unique field scans the joined model once per call, not once per row.
 */
import type { Row } from '../adapter.js'
import type { ResolvedJoin } from '../join.js'
import type { Tables } from './tables.js'
import { copyRow } from './values.js'

/** Dates are matched by time, as SQL compares them; everything else by identity. */
function key(value: unknown): unknown {
  return value instanceof Date ? value.getTime() : value
}

type Lookup = (value: unknown) => Row | undefined

function lookupFor(tables: Tables, join: ResolvedJoin): Lookup {
  const rows = tables.rows(join.model)
  if (join.references === 'id') return (value) => (typeof value === 'string' ? rows.get(value) : undefined)
  const index = new Map<unknown, Row>()
  for (const row of rows.values()) {
    const value = row[join.references]
    // A unique column may hold many nulls, and null never equals anything in a join.
    if (value !== null && value !== undefined) index.set(key(value), row)
  }
  return (value) => (value === null || value === undefined ? undefined : index.get(key(value)))
}

/**
 * Adds each join's row (a copy) or `null` to the base rows, which must be
 * copies already: they are changed in place.
 *
 * @example
 * attachJoins(tables, [session], [{ alias: 'user', model: 'user', field: 'userId', references: 'id' }])
 * // session.user is a copy of the user row, or null
 */
export function attachJoins(tables: Tables, rows: readonly Row[], joins: readonly ResolvedJoin[]): void {
  for (const join of joins) {
    const lookup = lookupFor(tables, join)
    for (const row of rows) {
      const found = lookup(row[join.field])
      row[join.alias] = found ? copyRow(found) : null
    }
  }
}
