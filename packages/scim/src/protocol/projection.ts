/**
 * @module
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9): which
 * attributes an answer carries. Both are comma-separated attribute paths,
 * schema-prefixed or not; `id` and `schemas` are always returned. A name
 * that is no attribute of the resource is passed over, so a directory
 * asking for its own extension's attributes gets the rest. Entra ID asks for
 * groups with `excludedAttributes=members`; the routes read a group's
 * members only when the answer or the filter needs them (`wants`).
 */
import { resolvePath, type ResourceKind } from './attribute-paths.js'
import { isRecord } from './request-body.js'

export interface Projection {
  /** The resource as the answer shows it. */
  apply(resource: Record<string, unknown>): Record<string, unknown>
  /** Whether the answer carries the top-level attribute (lowercased name), so it must be read. */
  wants(attribute: string): boolean
}

const ALWAYS = new Set(['id', 'schemas'])

/**
 * @example
 * parseProjection('Group', { excludedAttributes: 'members' }).wants('members') // false
 */
export function parseProjection(kind: ResourceKind, query: { readonly attributes?: unknown; readonly excludedAttributes?: unknown }): Projection {
  const included = paths(kind, query.attributes)
  const excluded = paths(kind, query.excludedAttributes)
  if (included.length > 0) {
    const tops = new Set(included.map((path) => path[0] ?? ''))
    return { apply: (resource) => include(resource, included), wants: (attribute) => tops.has(attribute) }
  }
  const dropped = new Set(excluded.filter((path) => path.length === 1).map((path) => path[0] ?? ''))
  return {
    apply: (resource) => (excluded.length > 0 ? exclude(resource, excluded) : resource),
    wants: (attribute) => !dropped.has(attribute),
  }
}

function paths(kind: ResourceKind, value: unknown): string[][] {
  const list = (Array.isArray(value) ? value : [value]).filter((each): each is string => typeof each === 'string')
  return list
    .flatMap((each) => each.split(','))
    .map((each) => each.trim())
    .filter((each) => each !== '')
    .flatMap((each) => {
      const path = resolvePath(kind, each)
      return path && !ALWAYS.has(path[0] ?? '') ? [path] : []
    })
}

function keyOf(record: Record<string, unknown>, lowered: string): string | undefined {
  return Object.keys(record).find((key) => key.toLowerCase() === lowered)
}

function include(resource: Record<string, unknown>, included: readonly string[][]): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const name of ['schemas', 'id']) if (resource[name] !== undefined) result[name] = resource[name]
  for (const path of included) copy(resource, result, path)
  return result
}

/** Copies the value at `path` from `source` into `target`, through complex and multi-valued attributes. */
function copy(source: Record<string, unknown>, target: Record<string, unknown>, path: readonly string[]): void {
  const [head, ...rest] = path
  const key = head === undefined ? undefined : keyOf(source, head)
  if (key === undefined) return
  const value = source[key]
  if (rest.length === 0 || value === undefined || value === null) {
    if (value !== undefined) target[key] = value
    return
  }
  if (Array.isArray(value)) {
    const existing = Array.isArray(target[key]) ? (target[key] as Record<string, unknown>[]) : value.map(() => ({}))
    value.forEach((item, index) => {
      if (isRecord(item) && existing[index]) copy(item, existing[index] as Record<string, unknown>, rest)
    })
    target[key] = existing
    return
  }
  if (!isRecord(value)) return
  const nested = isRecord(target[key]) ? (target[key] as Record<string, unknown>) : {}
  copy(value, nested, rest)
  target[key] = nested
}

function exclude(resource: Record<string, unknown>, excluded: readonly string[][]): Record<string, unknown> {
  const result = structuredClone(resource)
  for (const path of excluded) remove(result, path)
  return result
}

function remove(target: Record<string, unknown>, path: readonly string[]): void {
  const [head, ...rest] = path
  const key = head === undefined ? undefined : keyOf(target, head)
  if (key === undefined) return
  if (rest.length === 0) {
    delete target[key]
    return
  }
  const value = target[key]
  for (const item of Array.isArray(value) ? value : [value]) if (isRecord(item)) remove(item, rest)
}
