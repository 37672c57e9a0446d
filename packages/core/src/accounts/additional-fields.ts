/**
 * @module
 * Additional user fields from request bodies (docs/accounts.md#updating-the-user):
 * only configured fields pass, fields marked `input: false` are ignored,
 * values must have the field's type, and on create a required field without
 * a default must be present ("{field} is required"). A string field is capped
 * at its `maxLength`, 1024 by default (docs/accounts.md#input-limits): the
 * user row is copied into every session's secondary-storage entry and cookie
 * cache, so a client must not be able to store a megabyte there.
 */
import type { Row } from '../db/adapter.js'
import type { FieldDefinition } from '../db/schema.js'
import { DEFAULT_MAX_FIELD_LENGTH, tooLongMessage } from '../endpoint/input-limits.js'
import { fieldError } from '../endpoint/validate.js'
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'

/**
 * @example
 * const update = pickAdditionalFields(options.user?.additionalFields, body, 'update') // { plan: 'pro' }
 */
export function pickAdditionalFields(
  fields: Readonly<Record<string, FieldDefinition>> | undefined,
  input: Readonly<Record<string, unknown>>,
  mode: 'create' | 'update',
): Row {
  const picked: Row = {}
  for (const [name, definition] of Object.entries(fields ?? {})) {
    const value = input[name]
    if (definition.input === false) continue
    if (value === undefined) {
      if (mode === 'create' && definition.required !== false && definition.defaultValue === undefined) {
        throw new AuthError(CoreErrors.FIELD_REQUIRED, { message: `${name} is required` })
      }
      continue
    }
    picked[name] = coerce(name, definition, value)
  }
  return picked
}

function coerce(name: string, definition: FieldDefinition, value: unknown): unknown {
  if (value === null) {
    if (definition.required === false) return null
    throw new AuthError(CoreErrors.FIELD_REQUIRED, { message: `${name} is required` })
  }
  const ok = (() => {
    switch (definition.type) {
      case 'string':
        return typeof value === 'string'
      case 'number':
        return typeof value === 'number' && Number.isFinite(value)
      case 'boolean':
        return typeof value === 'boolean'
      case 'date':
        return (typeof value === 'string' || value instanceof Date) && !Number.isNaN(new Date(value).getTime())
      case 'json':
        return typeof value === 'object'
    }
  })()
  if (!ok) throw fieldError(`body.${name}`, `expected ${definition.type}`)
  if (typeof value === 'string' && definition.type === 'string') {
    const max = definition.maxLength ?? DEFAULT_MAX_FIELD_LENGTH
    if (value.length > max) throw fieldError(`body.${name}`, tooLongMessage(max))
  }
  return definition.type === 'date' ? new Date(value as string) : value
}
