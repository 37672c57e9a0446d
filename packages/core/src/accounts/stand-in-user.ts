/**
 * @module
 * The user a sign-up with a taken address answers with when
 * `emailAndPassword.preventEnumeration` is on
 * (docs/security.md#account-enumeration-at-sign-up): built as the store
 * builds a new row (a fresh id, schema defaults, null for optional fields,
 * lowercased fields, `createdAt`/`updatedAt` now), but never written. Both
 * answers list the fields in the schema's order, so not even the order of
 * the keys tells a stand-in from a row an adapter returned.
 */
import type { Row } from '../db/adapter.js'
import { publicRow } from '../db/output.js'
import { getModel } from '../db/schema.js'
import type { AuthContext } from '../types/contract.js'
import type { User } from '../types/rows.js'

/**
 * @example
 * const user = standInUser(auth, { ...extra, name: body.name, email, image: body.image ?? null, emailVerified: false })
 */
export function standInUser(auth: Pick<AuthContext, 'schema' | 'clock' | 'generateId'>, data: Row): User {
  const fields = getModel(auth.schema, 'user').fields
  const now = auth.clock.now()
  const row: Row = { id: auth.generateId('user'), ...data }
  for (const [field, definition] of Object.entries(fields)) {
    const value = definition.defaultValue
    if (row[field] === undefined && value !== undefined) row[field] = typeof value === 'function' ? (value as () => unknown)() : value
    if (row[field] === undefined && definition.required === false) row[field] = null
    if (definition.lowercase && typeof row[field] === 'string') row[field] = (row[field] as string).toLowerCase()
  }
  row.createdAt = now
  row.updatedAt = now
  return row as User
}

/**
 * The user as the sign-up answer shows it: `returned: false` fields dropped,
 * `id` first, then the schema's fields in order, then anything else.
 *
 * @example
 * return { token: null, user: signUpAnswerUser(auth, user) }
 */
export function signUpAnswerUser(auth: Pick<AuthContext, 'schema'>, user: User): User {
  const visible: Row = publicRow(auth.schema, 'user', user)
  const ordered: Row = {}
  for (const key of ['id', ...Object.keys(getModel(auth.schema, 'user').fields), ...Object.keys(visible)]) {
    if (key in visible && !(key in ordered)) ordered[key] = visible[key]
  }
  return ordered as User
}
