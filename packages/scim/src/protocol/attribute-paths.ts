/**
 * @module
 * Attribute names as SCIM writes them in filters, `attributes` lists and
 * PATCH paths (RFC 7644 §3.10): case-insensitive, optionally prefixed with
 * their schema URN (`urn:ietf:params:scim:schemas:core:2.0:User:userName`),
 * extension attributes always prefixed. A path resolves to segments: the
 * core URN is dropped, an extension URN is one segment (the resource keeps
 * extension attributes under their URN), then the attribute and its
 * sub-attribute, lowercased for comparison.
 */
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from './constants.js'

export type ResourceKind = 'User' | 'Group'

const CORE_SCHEMAS: Readonly<Record<ResourceKind, string>> = { User: USER_SCHEMA.toLowerCase(), Group: GROUP_SCHEMA.toLowerCase() }
const ENTERPRISE = ENTERPRISE_USER_SCHEMA.toLowerCase()

/** The top-level attributes of each resource (RFC 7643 §4), lowercased; the enterprise extension is one of User's. */
const ATTRIBUTES: Readonly<Record<ResourceKind, ReadonlySet<string>>> = {
  User: new Set([
    'id',
    'externalid',
    'username',
    'name',
    'displayname',
    'nickname',
    'profileurl',
    'title',
    'usertype',
    'preferredlanguage',
    'locale',
    'timezone',
    'active',
    'password',
    'emails',
    'phonenumbers',
    'ims',
    'photos',
    'addresses',
    'groups',
    'entitlements',
    'roles',
    'x509certificates',
    'meta',
    'schemas',
    ENTERPRISE,
  ]),
  Group: new Set(['id', 'externalid', 'displayname', 'members', 'meta', 'schemas']),
}

/** Attributes compared case-sensitively (`caseExact: true` in RFC 7643 §8.7): ids and references. */
const CASE_EXACT = new Set(['id', 'externalid', 'members.value', 'members.$ref', 'groups.value', 'groups.$ref', `${ENTERPRISE}.manager.value`, 'meta.location', 'meta.version'])

/** Date-valued attributes, compared as instants. */
const DATES = new Set(['meta.created', 'meta.lastmodified'])

/**
 * The lowercased segments of `path`, or null when it names no attribute of
 * `kind` (an unknown attribute, another schema's URN, an empty segment).
 *
 * @example
 * resolvePath('User', 'urn:ietf:params:scim:schemas:core:2.0:User:name.givenName') // ['name', 'givenname']
 * resolvePath('User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department') // ['urn:…:enterprise:2.0:user', 'department']
 */
export function resolvePath(kind: ResourceKind, path: string): string[] | null {
  const lowered = path.trim().toLowerCase()
  let segments: string[]
  const core = `${CORE_SCHEMAS[kind]}:`
  if (lowered.startsWith(core)) segments = lowered.slice(core.length).split('.')
  else if (kind === 'User' && (lowered === ENTERPRISE || lowered.startsWith(`${ENTERPRISE}:`))) {
    const rest = lowered.slice(ENTERPRISE.length + 1)
    segments = rest === '' ? [ENTERPRISE] : [ENTERPRISE, ...rest.split('.')]
  } else if (lowered.startsWith('urn:')) return null
  else segments = lowered.split('.')
  if (segments.length === 0 || segments.length > 3 || segments.some((segment) => !/^[a-z$][a-z0-9_$-]*$|^urn:/.test(segment))) return null
  if (!ATTRIBUTES[kind].has(segments[0] ?? '')) return null
  return segments
}

export function isCaseExact(segments: readonly string[]): boolean {
  return CASE_EXACT.has(segments.join('.'))
}

export function isDate(segments: readonly string[]): boolean {
  return DATES.has(segments.join('.'))
}

/** The value under `key` of `record`, the key compared case-insensitively (attribute names are: RFC 7643 §2.1). */
export function getCaseInsensitive(record: Record<string, unknown>, key: string): unknown {
  if (Object.hasOwn(record, key)) return record[key]
  for (const own of Object.keys(record)) if (own.toLowerCase() === key) return record[own]
  return undefined
}

const MULTI_VALUED_SUB = ['value', 'display', 'type', 'primary']

/** Every attribute a resource is stored and answered with, in its canonical case, with its sub-attributes. */
const CANONICAL: Readonly<Record<ResourceKind, Readonly<Record<string, readonly string[]>>>> = {
  User: {
    id: [],
    externalId: [],
    userName: [],
    name: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'],
    displayName: [],
    nickName: [],
    profileUrl: [],
    title: [],
    userType: [],
    preferredLanguage: [],
    locale: [],
    timezone: [],
    active: [],
    password: [],
    emails: MULTI_VALUED_SUB,
    phoneNumbers: MULTI_VALUED_SUB,
    ims: MULTI_VALUED_SUB,
    photos: MULTI_VALUED_SUB,
    addresses: ['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type', 'primary'],
    groups: ['value', '$ref', 'display', 'type'],
    entitlements: MULTI_VALUED_SUB,
    roles: MULTI_VALUED_SUB,
    x509Certificates: MULTI_VALUED_SUB,
    meta: ['resourceType', 'created', 'lastModified', 'location', 'version'],
    schemas: [],
    [ENTERPRISE_USER_SCHEMA]: ['employeeNumber', 'costCenter', 'organization', 'division', 'department', 'manager'],
  },
  Group: {
    id: [],
    externalId: [],
    displayName: [],
    members: ['value', '$ref', 'display', 'type'],
    meta: ['resourceType', 'created', 'lastModified', 'location', 'version'],
    schemas: [],
  },
}

/**
 * The canonical spelling of a resolved path (`['name', 'givenname']` → `['name', 'givenName']`),
 * or null when a sub-attribute is unknown. The manager's own sub-attributes (`value`, `displayName`) pass as given.
 *
 * @example
 * canonicalPath('User', ['emails', 'value']) // ['emails', 'value']
 */
export function canonicalPath(kind: ResourceKind, segments: readonly string[]): string[] | null {
  const table = CANONICAL[kind]
  const top = Object.keys(table).find((name) => name.toLowerCase() === segments[0])
  if (top === undefined) return null
  const result = [top]
  if (segments.length > 1) {
    const sub = (table[top] ?? []).find((name) => name.toLowerCase() === segments[1])
    if (sub === undefined) return null
    result.push(sub)
  }
  if (segments.length > 2) {
    const leaf = ['value', '$ref', 'displayName'].find((name) => name.toLowerCase() === segments[2])
    if (top !== ENTERPRISE_USER_SCHEMA || result[1] !== 'manager' || leaf === undefined) return null
    result.push(leaf)
  }
  return result
}

/** Canonical sub-attribute names of a top-level attribute. */
export function subAttributes(kind: ResourceKind, top: string): readonly string[] {
  return CANONICAL[kind][top] ?? []
}
