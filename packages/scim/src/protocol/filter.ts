/**
 * @module
 * `filter` on list requests (RFC 7644 §3.4.2.2). The grammar is parsed by
 * `scim2-parse-filter` (docs/scim.md#the-libraries); the evaluation is this
 * module's, because the library's evaluator compares every string
 * case-sensitively, while RFC 7643 makes `userName`, `emails.value` and
 * `displayName` case-insensitive (`caseExact: false`): Okta and Entra ID look
 * a user up by `userName eq` with whatever case their directory holds.
 * Here, case follows each attribute's `caseExact`, dates compare as
 * instants, `pr` is false for an empty string, list or object, `ne` is true
 * for an absent attribute, and ordering on a boolean is an `invalidFilter`.
 *
 * Before parsing, a filter over 2048 characters or holding a control
 * character is refused: the library's tokenizer backtracks exponentially on
 * a quoted string full of line breaks (a request could pin the CPU).
 */
import { parse, type Filter } from 'scim2-parse-filter'
import { ScimError, ScimErrors } from '../errors.js'
import { getCaseInsensitive, isCaseExact, isDate, resolvePath, type ResourceKind } from './attribute-paths.js'
import { isRecord } from './request-body.js'

export const MAX_FILTER_LENGTH = 2048

type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le'

/** A parsed filter with its attribute paths resolved. */
export type Node =
  | { readonly op: 'and' | 'or'; readonly filters: readonly Node[] }
  | { readonly op: 'not'; readonly filter: Node }
  | { readonly op: 'pr'; readonly path: readonly string[] }
  | { readonly op: CompareOp; readonly path: readonly string[]; readonly value: string | number | boolean | null }
  | { readonly op: '[]'; readonly path: readonly string[]; readonly filter: Node }

export interface CompiledFilter {
  readonly root: Node
  matches(resource: Record<string, unknown>): boolean
}

/**
 * @example
 * const filter = compileFilter('User', 'userName eq "Ada@Example.com"')
 * filter.matches({ userName: 'ada@example.com' }) // true
 */
export function compileFilter(kind: ResourceKind, text: string): CompiledFilter {
  if (text.length > MAX_FILTER_LENGTH) throw invalid(`The filter is longer than ${MAX_FILTER_LENGTH} characters`)
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) throw invalid('The filter holds a control character')
  let ast: Filter
  try {
    ast = parse(text)
  } catch (error) {
    throw invalid(error instanceof Error ? `The filter cannot be parsed: ${error.message.slice(0, 200)}` : 'The filter cannot be parsed')
  }
  const root = resolve(kind, ast, [])
  return { root, matches: (resource) => test(resource, root, []) }
}

function invalid(message: string): ScimError {
  return new ScimError(ScimErrors.INVALID_FILTER, { message })
}

function resolve(kind: ResourceKind, filter: Filter, parent: readonly string[]): Node {
  switch (filter.op) {
    case 'and':
    case 'or':
      return { op: filter.op, filters: filter.filters.map((each) => resolve(kind, each, parent)) }
    case 'not':
      return { op: 'not', filter: resolve(kind, filter.filter, parent) }
    case 'pr':
      return { op: 'pr', path: attribute(kind, filter.attrPath, parent) }
    case '[]': {
      if (parent.length > 0) throw invalid('A value filter cannot hold another one')
      const path = attribute(kind, filter.attrPath, parent)
      return { op: '[]', path, filter: resolve(kind, filter.valFilter, path) }
    }
    default: {
      const path = attribute(kind, filter.attrPath, parent)
      const value = filter.compValue
      if (filter.op === 'co' || filter.op === 'sw' || filter.op === 'ew') {
        if (typeof value !== 'string') throw invalid(`${filter.op} compares strings`)
      }
      if (filter.op === 'gt' || filter.op === 'ge' || filter.op === 'lt' || filter.op === 'le') {
        if (typeof value === 'boolean' || value === null) throw invalid(`${filter.op} cannot compare ${String(value)}`)
      }
      return { op: filter.op, path, value }
    }
  }
}

/** Inside a value filter (`emails[type eq "work"]`) paths are relative to the attribute. */
function attribute(kind: ResourceKind, text: string, parent: readonly string[]): readonly string[] {
  if (parent.length > 0) {
    const sub = text.trim().toLowerCase()
    if (!/^[a-z$][a-z0-9_$-]*$/.test(sub)) throw invalid(`"${text.slice(0, 64)}" is not a sub-attribute`)
    return [...parent, sub]
  }
  const path = resolvePath(kind, text)
  if (!path) throw invalid(`"${text.slice(0, 100)}" is not an attribute of ${kind}`)
  return path
}

function test(record: Record<string, unknown>, node: Node, prefix: readonly string[]): boolean {
  switch (node.op) {
    case 'and':
      return node.filters.every((each) => test(record, each, prefix))
    case 'or':
      return node.filters.some((each) => test(record, each, prefix))
    case 'not':
      return !test(record, node.filter, prefix)
    case '[]':
      return valuesAt(record, node.path.slice(prefix.length)).some((item) => isRecord(item) && test(item, node.filter, node.path))
    case 'pr':
      return valuesAt(record, node.path.slice(prefix.length)).some(isPresent)
    case 'ne':
      return !valuesAt(record, node.path.slice(prefix.length)).some((value) => compare('eq', value, node.value, node.path))
    default:
      return valuesAt(record, node.path.slice(prefix.length)).some((value) => compare(node.op, value, node.value, node.path))
  }
}

/** Every value at `path`, multi-valued attributes flattened. */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  if (Array.isArray(value)) return value.flatMap((item) => valuesAt(item, path))
  if (path.length === 0) return value === undefined ? [] : [value]
  if (!isRecord(value)) return []
  const [head, ...rest] = path as [string, ...string[]]
  return valuesAt(getCaseInsensitive(value, head), rest)
}

function isPresent(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false
  if (Array.isArray(value)) return value.length > 0
  if (isRecord(value)) return Object.values(value).some(isPresent)
  return true
}

function compare(op: CompareOp, actual: unknown, expected: string | number | boolean | null, path: readonly string[]): boolean {
  if (expected === null) return actual === null
  if (typeof actual === 'boolean') {
    // Entra ID writes `active eq "False"` as often as `active eq false`.
    return op === 'eq' && booleanOf(expected) === actual
  }
  if (typeof actual === 'number' && typeof expected === 'number') return order(op, actual, expected, (a, b) => a === b)
  if (typeof actual !== 'string' || typeof expected !== 'string') return false
  if (isDate(path)) {
    const [a, b] = [Date.parse(actual), Date.parse(expected)]
    if (Number.isNaN(b)) throw invalid(`"${expected.slice(0, 64)}" is not a date`)
    if (!Number.isNaN(a) && (op === 'eq' || op === 'gt' || op === 'ge' || op === 'lt' || op === 'le')) return order(op, a, b, (x, y) => x === y)
  }
  const exact = isCaseExact(path)
  const [a, b] = exact ? [actual, expected] : [actual.toLowerCase(), expected.toLowerCase()]
  switch (op) {
    case 'co':
      return a.includes(b)
    case 'sw':
      return a.startsWith(b)
    case 'ew':
      return a.endsWith(b)
    default:
      return order(op, a, b, (x, y) => x === y)
  }
}

function booleanOf(value: string | number | boolean): boolean | null {
  if (typeof value === 'boolean') return value
  const lowered = String(value).toLowerCase()
  return lowered === 'true' ? true : lowered === 'false' ? false : null
}

function order<T extends string | number>(op: CompareOp, a: T, b: T, equal: (a: T, b: T) => boolean): boolean {
  switch (op) {
    case 'eq':
      return equal(a, b)
    case 'gt':
      return a > b
    case 'ge':
      return a >= b
    case 'lt':
      return a < b
    case 'le':
      return a <= b
    default:
      return false
  }
}

/**
 * An equality every match must satisfy, for reading only the candidates from
 * the database (`userName eq "x"`, alone or in an `and`); null when the
 * filter has none, and every resource must be read.
 *
 * @example
 * requiredEquality(compileFilter('User', 'userName eq "ada" and active eq true').root) // { attribute: 'username', value: 'ada' }
 */
export function requiredEquality(node: Node, attributes: ReadonlySet<string>): { attribute: string; value: string } | null {
  if (node.op === 'eq' && node.path.length === 1 && typeof node.value === 'string' && attributes.has(node.path[0] ?? '')) {
    return { attribute: node.path[0] ?? '', value: node.value }
  }
  if (node.op === 'and') {
    for (const each of node.filters) {
      const found = requiredEquality(each, attributes)
      if (found) return found
    }
  }
  return null
}

/** Whether the filter reads the top-level attribute `attribute` (lowercased), so it must be loaded. */
export function mentions(node: Node, attribute: string): boolean {
  switch (node.op) {
    case 'and':
    case 'or':
      return node.filters.some((each) => mentions(each, attribute))
    case 'not':
      return mentions(node.filter, attribute)
    default:
      return node.path[0] === attribute
  }
}
