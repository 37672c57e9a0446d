/**
 * @module
 * Reading attribute values the way directories send them. Microsoft Entra ID
 * sends booleans as the strings `"True"` and `"False"` in PATCH operations
 * (docs/scim.md#microsoft-entra-id), so a boolean attribute accepts those,
 * in any case, besides JSON booleans. Strings are capped: a value is stored
 * and sent back on every read.
 */
import { ScimError, ScimErrors } from '../errors.js'

/** Longest string attribute kept, in UTF-16 units. */
export const MAX_STRING_LENGTH = 1024

/**
 * `true`/`false`, or the strings `"true"`/`"false"` in any case; else 400 `invalidValue`.
 *
 * @example
 * readBoolean('False', 'active') // false
 */
export function readBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string') {
    const lowered = value.trim().toLowerCase()
    if (lowered === 'true') return true
    if (lowered === 'false') return false
  }
  throw new ScimError(ScimErrors.INVALID_VALUE, { message: `${attribute} must be true or false` })
}

/** A string of at most `max` units (`required`: also non-blank); else 400 `invalidValue`. */
export function readString(value: unknown, attribute: string, options: { readonly required?: boolean; readonly max?: number } = {}): string {
  const max = options.max ?? MAX_STRING_LENGTH
  if (typeof value !== 'string' || (options.required && value.trim() === '')) {
    throw new ScimError(ScimErrors.INVALID_VALUE, { message: `${attribute} must be a${options.required ? ' non-empty' : ''} string` })
  }
  if (value.length > max) throw new ScimError(ScimErrors.INVALID_VALUE, { message: `${attribute} is longer than ${max} characters` })
  return value
}

/** `undefined` for null or absent (an unassigned attribute: RFC 7643 §2.5), else `readString`. */
export function readOptionalString(value: unknown, attribute: string): string | undefined {
  if (value === undefined || value === null) return undefined
  return readString(value, attribute)
}
