/**
 * @module
 * `Where` clauses, independent of any backend: `matchesWhere` evaluates one
 * against a plain row (the in-memory adapter's query engine, and the
 * reference semantics the conformance suite holds SQL adapters to), and
 * `validateWhere` rejects malformed clauses before any adapter runs them.
 *
 * Semantics, in the order adapters get them wrong:
 * - `eq null` matches null (and absent) fields; `ne null` matches set fields;
 *   `ne 'x'` matches null fields too, since null is not equal to 'x'.
 * - `in []` matches nothing; an empty `or` matches nothing; an empty `and` (or
 *   an empty list) matches everything.
 * - String comparisons are case-sensitive unless `insensitive: true`, and the
 *   `contains`/`starts_with`/`ends_with` values are literal text, never patterns.
 * - Dates compare by their time in milliseconds; `lt`/`lte`/`gt`/`gte` never
 *   match a null field or a null value, nor values of different types.
 */
import { toWhere, type Condition, type Operator, type Row, type Where, type WhereInput } from './adapter.js'
import { getModel, type Schema } from './schema.js'

const OPERATORS: ReadonlySet<string> = new Set<Operator>(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'starts_with', 'ends_with'])
const STRING_OPERATORS: ReadonlySet<string> = new Set<Operator>(['contains', 'starts_with', 'ends_with'])

/**
 * Whether `row` satisfies `where`; no clause matches every row.
 *
 * @example
 * matchesWhere({ id: 'u1', email: 'ada@example.com' }, { field: 'email', value: 'ADA@example.com', insensitive: true }) // true
 */
export function matchesWhere(row: Row, where: WhereInput | undefined): boolean {
  const clause = toWhere(where)
  return clause === undefined || matches(row, clause)
}

function matches(row: Row, clause: Where): boolean {
  if ('and' in clause) return clause.and.every((inner) => matches(row, inner))
  if ('or' in clause) return clause.or.some((inner) => matches(row, inner))
  return matchesCondition(row[clause.field], clause)
}

function matchesCondition(actual: unknown, condition: Condition): boolean {
  const { value } = condition
  const insensitive = condition.insensitive === true
  switch (condition.operator ?? 'eq') {
    case 'eq':
      return isEqual(actual, value, insensitive)
    case 'ne':
      return !isEqual(actual, value, insensitive)
    case 'in':
      return Array.isArray(value) && isSet(actual) && value.some((item: unknown) => isEqual(actual, item, insensitive))
    case 'lt':
      return compare(actual, value, (order) => order < 0)
    case 'lte':
      return compare(actual, value, (order) => order <= 0)
    case 'gt':
      return compare(actual, value, (order) => order > 0)
    case 'gte':
      return compare(actual, value, (order) => order >= 0)
    case 'contains':
      return matchText(actual, value, insensitive, (text, part) => text.includes(part))
    case 'starts_with':
      return matchText(actual, value, insensitive, (text, part) => text.startsWith(part))
    case 'ends_with':
      return matchText(actual, value, insensitive, (text, part) => text.endsWith(part))
  }
}

function isSet(value: unknown): boolean {
  return value !== null && value !== undefined
}

/** Dates become their time, so two `Date` objects for one instant are equal. */
function comparable(value: unknown): unknown {
  return value instanceof Date ? value.getTime() : value
}

function isEqual(actual: unknown, expected: unknown, insensitive: boolean): boolean {
  if (!isSet(expected)) return !isSet(actual)
  if (!isSet(actual)) return false
  if (insensitive && typeof actual === 'string' && typeof expected === 'string') {
    return actual.toLowerCase() === expected.toLowerCase()
  }
  return comparable(actual) === comparable(expected)
}

function compare(actual: unknown, expected: unknown, accept: (order: number) => boolean): boolean {
  const left = comparable(actual)
  const right = comparable(expected)
  if (!isSet(left) || !isSet(right)) return false
  if (typeof left === 'number' && typeof right === 'number') return accept(left - right)
  if (typeof left === 'string' && typeof right === 'string') return accept(left < right ? -1 : left > right ? 1 : 0)
  return false
}

function matchText(actual: unknown, value: unknown, insensitive: boolean, test: (text: string, part: string) => boolean): boolean {
  if (typeof actual !== 'string' || typeof value !== 'string') return false
  return insensitive ? test(actual.toLowerCase(), value.toLowerCase()) : test(actual, value)
}

/**
 * Throws a descriptive `Error` when `where` names a field the model lacks, an
 * unknown operator, or a value the operator cannot take. Adapters call it
 * first, so a typo fails loudly instead of matching every row or none.
 *
 * @example
 * validateWhere(schema, 'user', { field: 'emial', value: 'ada@example.com' })
 * // Error: Invalid where on model "user": unknown field "emial"
 */
export function validateWhere(schema: Schema, model: string, where: WhereInput | undefined): void {
  const fields = getModel(schema, model).fields
  const problem = (message: string): never => {
    throw new Error(`Invalid where on model "${model}": ${message}`)
  }
  const visit = (clause: unknown): void => {
    if (Array.isArray(clause)) return clause.forEach(visit)
    if (typeof clause !== 'object' || clause === null) return problem(`expected a clause object, received ${String(clause)}`)
    if ('and' in clause || 'or' in clause) {
      const list: unknown = 'and' in clause ? clause.and : 'or' in clause ? clause.or : undefined
      if (!Array.isArray(list)) return problem('"and" and "or" take an array of clauses')
      return list.forEach(visit)
    }
    if (!('field' in clause) || typeof clause.field !== 'string') return problem('a condition needs a "field"')
    const { field } = clause
    const definition = field === 'id' ? { type: 'string' as const } : fields[field]
    if (!definition) return problem(`unknown field "${field}"`)
    const operator: unknown = 'operator' in clause && clause.operator !== undefined ? clause.operator : 'eq'
    if (typeof operator !== 'string' || !OPERATORS.has(operator)) return problem(`unknown operator "${String(operator)}" on "${field}"`)
    const value: unknown = 'value' in clause ? clause.value : undefined
    if (value === undefined) return problem(`"${field}" ${operator} needs a value (use null to match nulls)`)
    if ('insensitive' in clause && clause.insensitive !== undefined && typeof clause.insensitive !== 'boolean') {
      return problem(`"insensitive" on "${field}" must be a boolean`)
    }
    if (operator === 'in') {
      if (!Array.isArray(value)) return problem(`"${field}" in needs an array value`)
      if (!value.every((item: unknown) => typeof item === 'string' || typeof item === 'number')) {
        return problem(`"${field}" in takes strings and numbers only`)
      }
    } else if (Array.isArray(value)) {
      return problem(`"${field}" ${operator} takes a single value; use operator "in" for a list`)
    }
    if (STRING_OPERATORS.has(operator) && typeof value !== 'string') return problem(`"${field}" ${operator} needs a string value`)
    if (definition.type === 'json' && !((operator === 'eq' || operator === 'ne') && value === null)) {
      // JSON columns have no portable equality or ordering across backends.
      return problem(`json field "${field}" can only be compared with null (eq/ne)`)
    }
  }
  if (where !== undefined) visit(where)
}
