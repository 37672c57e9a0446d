/**
 * @module
 * PATCH (RFC 7644 §3.5.2), applied by `scim-patch` (docs/scim.md#the-libraries)
 * after this module has put the request in the form the library handles
 * well and checked every path it will walk:
 *
 * - `op` in any case (Entra ID sends `Add`, `Replace`, `Remove`);
 * - a path-less `add`/`replace` whose value is an object becomes one
 *   operation per key, each key a path: Entra ID sends
 *   `{"op":"Replace","value":{"active":false,"emails[type eq \"work\"].value":"…"}}`,
 *   and the library would store that second key as an attribute named so;
 * - paths are resolved case-insensitively and rewritten in the resource's
 *   canonical case, a core schema URN dropped, the enterprise URN spelled as
 *   the library expects; an unknown attribute is 400 `invalidPath`, a
 *   read-only one (`id`, `meta`, `groups`) 400 `mutability`; operations on
 *   `password` are dropped, as a password in a POST or PUT is ignored;
 * - a group's `members` values are reduced to `{ value }`, so removing
 *   `[{"value":"id"}]` matches a member the resource lists with its
 *   `display` (the library compares whole objects);
 * - `"True"`/`"False"` strings are left to the resource's validation after
 *   the patch (services/user-input.ts), which reads them as booleans.
 *
 * Why the checks matter: the library walks path segments as object keys, so
 * `__proto__.x` or `constructor.prototype.x` would write into
 * `Object.prototype` (prototype pollution in scim-patch 0.8.3); a path here
 * names only known attributes, and the body was already refused if any key
 * was one of those names (request-body.ts).
 */
import { parse } from 'scim2-parse-filter'
import { scimPatch, type ScimPatchOperation, type ScimResource } from 'scim-patch'
import { ScimError, ScimErrors } from '../errors.js'
import { canonicalPath, resolvePath, subAttributes, type ResourceKind } from './attribute-paths.js'
import { ENTERPRISE_USER_SCHEMA, PATCH_OP_SCHEMA } from './constants.js'
import { isRecord } from './request-body.js'

/** Most operations one PATCH may carry. */
export const MAX_OPERATIONS = 1000

const MAX_PATH_LENGTH = 512

/** The canonical path of `password`: its operations are dropped (passwords are never set through SCIM; Okta sends them when password sync is on). */
const PASSWORD = 'password'

export interface PatchOperation {
  readonly op: 'add' | 'remove' | 'replace'
  /** Canonical; absent only for a path-less operation on the whole resource (never after `readPatch`). */
  readonly path: string
  readonly value?: unknown
}

const READ_ONLY: Readonly<Record<ResourceKind, ReadonlySet<string>>> = {
  User: new Set(['id', 'meta', 'groups', 'schemas']),
  Group: new Set(['id', 'meta', 'schemas']),
}

/**
 * The operations of a PatchOp message, normalised (module comment). `current`
 * is the resource as it is: a path-less value may repeat its `id`, as Okta's does.
 *
 * @example
 * readPatch('User', { schemas: [PATCH_OP_SCHEMA], Operations: [{ op: 'Replace', value: { active: 'False' } }] }, 'id1')
 * // [{ op: 'replace', path: 'active', value: 'False' }]
 */
export function readPatch(kind: ResourceKind, body: Record<string, unknown>, currentId: string): PatchOperation[] {
  const schemas = body.schemas
  if (!Array.isArray(schemas) || !schemas.some((schema) => typeof schema === 'string' && schema.toLowerCase() === PATCH_OP_SCHEMA.toLowerCase())) {
    throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: `A PATCH body names the ${PATCH_OP_SCHEMA} schema` })
  }
  const operations = body.Operations ?? body.operations
  if (!Array.isArray(operations) || operations.length === 0) throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: 'Operations must be a non-empty array' })
  if (operations.length > MAX_OPERATIONS) throw new ScimError(ScimErrors.TOO_MANY, { message: `At most ${MAX_OPERATIONS} operations per request` })
  return operations.flatMap((operation) => readOperation(kind, operation, currentId))
}

function readOperation(kind: ResourceKind, operation: unknown, currentId: string): PatchOperation[] {
  if (!isRecord(operation)) throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: 'Each operation is an object' })
  const op = typeof operation.op === 'string' ? operation.op.trim().toLowerCase() : ''
  if (op !== 'add' && op !== 'remove' && op !== 'replace') {
    throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: `"${String(operation.op).slice(0, 32)}" is not add, remove or replace` })
  }
  const path = operation.path === undefined || operation.path === null ? '' : operation.path
  if (typeof path !== 'string') throw new ScimError(ScimErrors.INVALID_PATH, { message: 'path must be a string' })
  const hasValue = Object.hasOwn(operation, 'value')
  if (op !== 'remove' && !hasValue) throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: `${op} needs a value` })
  if (path.trim() === '') {
    if (op === 'remove') throw new ScimError(ScimErrors.NO_TARGET, { message: 'remove needs a path' })
    if (!isRecord(operation.value)) throw new ScimError(ScimErrors.INVALID_VALUE, { message: `A ${op} without a path takes an object of attributes` })
    return Object.entries(operation.value).flatMap(([key, value]) => pathless(kind, op, key, value, currentId))
  }
  const canonical = canonicalPatchPath(kind, path)
  if (canonical === PASSWORD) return []
  if (canonical === ENTERPRISE_USER_SCHEMA) return wholeExtension(op, operation.value)
  return [{ op, path: canonical, ...(hasValue ? { value: memberValues(kind, canonical, operation.value) } : {}) }]
}

/**
 * The enterprise extension named as a whole: one operation per attribute of
 * it (the library would take the URN's last segment for an attribute).
 */
function wholeExtension(op: 'add' | 'remove' | 'replace', value: unknown): PatchOperation[] {
  const paths = (sub: string) => canonicalPatchPath('User', `${ENTERPRISE_USER_SCHEMA}:${sub}`)
  if (op === 'remove') return subAttributes('User', ENTERPRISE_USER_SCHEMA).map((sub) => ({ op, path: paths(sub) }))
  if (!isRecord(value)) throw new ScimError(ScimErrors.INVALID_VALUE, { message: 'The enterprise extension is an object' })
  return Object.entries(value).map(([sub, item]) => ({ op, path: paths(sub), value: item }))
}

/** One key of a path-less value: echoes of `schemas`, `meta` and the resource's own `id` are passed over. */
function pathless(kind: ResourceKind, op: 'add' | 'replace', key: string, value: unknown, currentId: string): PatchOperation[] {
  const top = resolvePath(kind, key)?.[0]
  if (top === 'schemas' || top === 'meta') return []
  if (top === 'id') {
    if (value === currentId) return []
    throw new ScimError(ScimErrors.MUTABILITY, { message: 'id cannot be changed' })
  }
  const path = canonicalPatchPath(kind, key)
  if (path === PASSWORD) return []
  if (path === ENTERPRISE_USER_SCHEMA) return wholeExtension(op, value)
  return [{ op, path, value: memberValues(kind, path, value) }]
}

/**
 * A path in the library's form, after the checks of the module comment:
 * `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`, `urn:…:enterprise:2.0:User:attr(.sub)`.
 *
 * @example
 * canonicalPatchPath('User', 'Emails[Type eq "work"].Value') // 'emails[Type eq "work"].value'
 */
export function canonicalPatchPath(kind: ResourceKind, path: string): string {
  const text = path.trim()
  // eslint-disable-next-line no-control-regex
  if (text.length > MAX_PATH_LENGTH || /[\u0000-\u001f\u007f]/.test(text)) throw invalidPath(text)
  const bracket = text.indexOf('[')
  const head = bracket < 0 ? text : text.slice(0, bracket)
  const segments = resolvePath(kind, head)
  const canonical = segments ? canonicalPath(kind, segments) : null
  if (!canonical || canonical[0] === undefined) throw invalidPath(text)
  const [top, ...rest] = canonical as [string, ...string[]]
  if (READ_ONLY[kind].has(top)) throw new ScimError(ScimErrors.MUTABILITY, { message: `${top} is read-only` })
  if (top === 'password') return PASSWORD
  if (bracket < 0 && top === ENTERPRISE_USER_SCHEMA) return rest.length === 0 ? top : `${top}:${rest.join('.')}`
  if (bracket < 0) return canonical.join('.')
  // A value filter: only on a top-level multi-valued attribute, at most one sub-attribute after it.
  const match = /^\[(.+)\](?:\.([A-Za-z$][\w$-]*))?$/s.exec(text.slice(bracket))
  if (!match || rest.length > 0 || top === ENTERPRISE_USER_SCHEMA || top === 'name') throw invalidPath(text)
  const filter = match[1] ?? ''
  // The library finds a path's schema URN at its last ":"; one inside the filter would be taken for it.
  if (filter.includes(':')) throw invalidPath(text)
  try {
    parse(filter)
  } catch {
    throw new ScimError(ScimErrors.INVALID_FILTER, { message: `The filter of ${text.slice(0, 100)} cannot be parsed` })
  }
  if (match[2] === undefined) return `${top}[${filter}]`
  const sub = canonicalPath(kind, [top.toLowerCase(), match[2].toLowerCase()])?.[1]
  if (!sub) throw invalidPath(text)
  return `${top}[${filter}].${sub}`
}

function invalidPath(path: string): ScimError {
  return new ScimError(ScimErrors.INVALID_PATH, { message: `"${path.slice(0, 100)}" is not an attribute path this service knows` })
}

/** A group's members as the library must compare them: `{ value }` only. */
function memberValues(kind: ResourceKind, path: string, value: unknown): unknown {
  if (kind !== 'Group' || path !== 'members') return value
  const items = Array.isArray(value) ? value : [value]
  return items.map((item) => {
    if (!isRecord(item) || typeof item.value !== 'string' || item.value === '') {
      throw new ScimError(ScimErrors.INVALID_VALUE, { message: 'Each member is an object with a string value' })
    }
    return { value: item.value }
  })
}

/**
 * `resource` with the operations applied, in a copy. The library's failures
 * become SCIM errors: `noTarget` when a filter matched nothing to replace,
 * `invalidPath` otherwise.
 *
 * @example
 * applyPatch({ active: true }, [{ op: 'replace', path: 'active', value: false }]) // { active: false }
 */
export function applyPatch(resource: Record<string, unknown>, operations: readonly PatchOperation[]): Record<string, unknown> {
  const document = structuredClone(resource) as Record<string, unknown> & ScimResource
  try {
    scimPatch(document, operations as ScimPatchOperation[], { mutateDocument: true, treatMissingAsAdd: true })
  } catch (error) {
    const code = (error as { scimCode?: unknown }).scimCode
    const message = error instanceof Error ? error.message.slice(0, 300) : 'The operation cannot be applied'
    throw new ScimError(code === 'noTarget' ? ScimErrors.NO_TARGET : ScimErrors.INVALID_PATH, { message })
  }
  return document
}
