/**
 * @module
 * A Group resource as a directory sends it (POST, PUT, or the result of a
 * PATCH): `displayName` (required, the team's name), `externalId`, and
 * `members` as user ids. A PUT without `members` empties the team, as
 * RFC 7644 §3.5.1 replaces every attribute; read-only ones are passed over.
 */
import { ScimError, ScimErrors } from '../errors.js'
import { resolvePath } from '../protocol/attribute-paths.js'
import { GROUP_SCHEMA } from '../protocol/constants.js'
import { isRecord } from '../protocol/request-body.js'
import { readString } from '../protocol/values.js'

const MAX_NAME_LENGTH = 256
/** Most members one request may name. */
export const MAX_MEMBERS = 10_000

export interface GroupInput {
  readonly displayName: string
  readonly externalId: string | null
  /** User ids, each once. */
  readonly members: readonly string[]
}

/**
 * @example
 * readGroupInput({ schemas: [GROUP_SCHEMA], displayName: 'Engineering', members: [{ value: userId }] }).members // [userId]
 */
export function readGroupInput(body: Record<string, unknown>): GroupInput {
  const schemas = body.schemas
  if (!Array.isArray(schemas) || !schemas.some((schema) => typeof schema === 'string' && schema.toLowerCase() === GROUP_SCHEMA.toLowerCase())) {
    throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: `A Group names the ${GROUP_SCHEMA} schema` })
  }
  let displayName: string | undefined
  let externalId: string | null = null
  let members: string[] = []
  for (const [key, value] of Object.entries(body)) {
    const top = resolvePath('Group', key)
    if (!top || top.length !== 1 || value === undefined) continue
    if (top[0] === 'displayname') displayName = readString(value, 'displayName', { required: true, max: MAX_NAME_LENGTH }).trim()
    else if (top[0] === 'externalid') externalId = value === null ? null : readString(value, 'externalId', { max: MAX_NAME_LENGTH }) || null
    else if (top[0] === 'members') members = readMembers(value)
  }
  if (displayName === undefined) throw new ScimError(ScimErrors.INVALID_VALUE, { message: 'displayName is required' })
  return { displayName, externalId, members }
}

function readMembers(value: unknown): string[] {
  if (value === null) return []
  const items = Array.isArray(value) ? value : [value]
  if (items.length > MAX_MEMBERS) throw new ScimError(ScimErrors.TOO_MANY, { message: `At most ${MAX_MEMBERS} members per request` })
  const ids = items.map((item) => {
    if (!isRecord(item) || typeof item.value !== 'string' || item.value === '') {
      throw new ScimError(ScimErrors.INVALID_VALUE, { message: 'Each member is an object with a string value' })
    }
    return item.value
  })
  return [...new Set(ids)]
}
