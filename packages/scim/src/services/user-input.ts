/**
 * @module
 * A User resource as a directory sends it (POST, PUT, or the result of a
 * PATCH), checked and reduced to what is kept (docs/scim.md#mapping):
 *
 * - `userName` (required) and `externalId`, kept per organization;
 * - `active`, with Entra ID's `"True"`/`"False"` strings read as booleans;
 * - the other attributes of the core User and Enterprise User schemas, each
 *   checked for its type, in canonical case; `primary` is true on one value
 *   at most; anything else (another extension, an unknown name) is passed
 *   over, as are read-only attributes (`id`, `meta`, `groups`) and
 *   `password` (passwords are never set through SCIM);
 * - the email the Gatehouse user gets: the primary email (else the first
 *   `work` one, else the first), else `userName` when it is an address.
 *
 * Values are capped in length and count, and the kept attributes at 32 KiB
 * of JSON: every read of the resource sends them back.
 */
import { normalizeEmail } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../errors.js'
import { canonicalPath, resolvePath, subAttributes } from '../protocol/attribute-paths.js'
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from '../protocol/constants.js'
import { isRecord } from '../protocol/request-body.js'
import { readBoolean, readOptionalString, readString } from '../protocol/values.js'

const MAX_NAME_LENGTH = 256
const MAX_VALUES = 20
const MAX_ATTRIBUTES_JSON = 32 * 1024

const SIMPLE = new Set(['displayName', 'nickName', 'profileUrl', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone'])
const MULTI_VALUED = new Set(['emails', 'phoneNumbers', 'ims', 'photos', 'addresses', 'entitlements', 'roles', 'x509Certificates'])
const PASSED_OVER = new Set(['id', 'meta', 'groups', 'password', 'schemas', 'userName', 'externalId', 'active'])

export interface UserInput {
  readonly userName: string
  readonly externalId: string | null
  /** Absent on a PUT that leaves it out: the member keeps its state. */
  readonly active: boolean | undefined
  /** The kept attributes, canonical keys, without the four above. */
  readonly attributes: Record<string, unknown>
  /** The address the Gatehouse user has, normalised; null when the resource names none. */
  readonly email: string | null
  /** The Gatehouse user's name. */
  readonly name: string
}

/**
 * @example
 * readUserInput({ schemas: [USER_SCHEMA], userName: 'ada@acme.com', active: 'False' }).active // false
 */
export function readUserInput(body: Record<string, unknown>): UserInput {
  const schemas = body.schemas
  if (!Array.isArray(schemas) || !schemas.some((schema) => typeof schema === 'string' && schema.toLowerCase() === USER_SCHEMA.toLowerCase())) {
    throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: `A User names the ${USER_SCHEMA} schema` })
  }
  let userName: string | undefined
  let externalId: string | null = null
  let active: boolean | undefined
  const attributes: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body)) {
    const segments = resolvePath('User', key)
    const name = segments && segments.length === 1 ? canonicalPath('User', segments)?.[0] : undefined
    if (name === undefined || value === undefined) continue
    if (name === 'userName') userName = readString(value, 'userName', { required: true, max: MAX_NAME_LENGTH }).trim()
    else if (name === 'externalId') externalId = value === null ? null : readString(value, 'externalId', { max: MAX_NAME_LENGTH }) || null
    else if (name === 'active') active = value === null ? undefined : readBoolean(value, 'active')
    else if (PASSED_OVER.has(name) || value === null) continue
    else if (name === 'name') attributes.name = readComplex(value, 'name', subAttributes('User', 'name'))
    else if (SIMPLE.has(name)) attributes[name] = readString(value, name)
    else if (MULTI_VALUED.has(name)) attributes[name] = readMultiValued(value, name)
    else if (name === ENTERPRISE_USER_SCHEMA) attributes[name] = readEnterprise(value)
  }
  if (userName === undefined) throw new ScimError(ScimErrors.INVALID_VALUE, { message: 'userName is required' })
  if (JSON.stringify(attributes).length > MAX_ATTRIBUTES_JSON) throw new ScimError(ScimErrors.INVALID_VALUE, { message: 'The resource is too large' })
  const email = primaryEmail(attributes.emails) ?? normalizeEmail(userName)
  return { userName, externalId, active, attributes, email, name: displayName(attributes, email ?? userName) }
}

/** A complex attribute's known sub-attributes, all strings. */
function readComplex(value: unknown, attribute: string, names: readonly string[]): Record<string, string> {
  if (!isRecord(value)) throw new ScimError(ScimErrors.INVALID_VALUE, { message: `${attribute} must be an object` })
  const result: Record<string, string> = {}
  for (const [key, item] of Object.entries(value)) {
    const name = names.find((candidate) => candidate.toLowerCase() === key.toLowerCase())
    const read = name === undefined ? undefined : readOptionalString(item, `${attribute}.${name}`)
    if (name !== undefined && read !== undefined) result[name] = read
  }
  return result
}

function readMultiValued(value: unknown, attribute: string): Record<string, unknown>[] {
  const items = Array.isArray(value) ? value : [value]
  if (items.length > MAX_VALUES) throw new ScimError(ScimErrors.INVALID_VALUE, { message: `${attribute} holds more than ${MAX_VALUES} values` })
  const names = subAttributes('User', attribute).filter((name) => name !== 'primary')
  let primarySeen = false
  return items.map((item) => {
    if (!isRecord(item)) throw new ScimError(ScimErrors.INVALID_VALUE, { message: `Each of ${attribute} is an object` })
    const result: Record<string, unknown> = readComplex(Object.fromEntries(Object.entries(item).filter(([key]) => key.toLowerCase() !== 'primary')), attribute, names)
    const primaryKey = Object.keys(item).find((key) => key.toLowerCase() === 'primary')
    const primary = primaryKey !== undefined && item[primaryKey] !== null && readBoolean(item[primaryKey], `${attribute}.primary`)
    // RFC 7643 §2.4: the primary value is one at most.
    if (primary && !primarySeen) {
      result.primary = true
      primarySeen = true
    }
    return result
  })
}

function readEnterprise(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new ScimError(ScimErrors.INVALID_VALUE, { message: 'The enterprise extension is an object' })
  const names = subAttributes('User', ENTERPRISE_USER_SCHEMA)
  const result: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const name = names.find((candidate) => candidate.toLowerCase() === key.toLowerCase())
    if (name === undefined || item === null || item === undefined) continue
    if (name !== 'manager') result[name] = readString(item, name)
    // Entra ID sends the manager as the manager's id alone.
    else if (typeof item === 'string') result.manager = { value: readString(item, 'manager') }
    else if (item !== '') result.manager = readComplex(item, 'manager', ['value', '$ref', 'displayName'])
  }
  return result
}

function primaryEmail(emails: unknown): string | null {
  if (!Array.isArray(emails)) return null
  const list = emails.filter(isRecord)
  const chosen = list.find((email) => email.primary === true) ?? list.find((email) => email.type === 'work') ?? list[0]
  return chosen ? normalizeEmail(chosen.value) : null
}

function displayName(attributes: Record<string, unknown>, fallback: string): string {
  const name = isRecord(attributes.name) ? attributes.name : {}
  const parts = [name.givenName, name.familyName].filter((part): part is string => typeof part === 'string' && part.trim() !== '')
  const candidates = [attributes.displayName, name.formatted, parts.join(' ')]
  const chosen = candidates.find((candidate): candidate is string => typeof candidate === 'string' && candidate.trim() !== '')
  return (chosen ?? fallback).trim().slice(0, MAX_NAME_LENGTH)
}
