/**
 * @module
 * The body of a SCIM write. The routes take it raw, so that a malformed one
 * is answered with a SCIM `invalidSyntax` body instead of core's JSON error,
 * and parse it here: `application/scim+json` or `application/json` (or no
 * type, as some directories send), an object at the top.
 *
 * Keys named `__proto__`, `constructor` or `prototype` are refused anywhere
 * in the body: the PATCH library walks attribute names as object keys, and
 * such a name would reach `Object.prototype` (prototype pollution:
 * docs/scim.md#the-libraries). No SCIM attribute has one of these names.
 */
import { ScimError, ScimErrors } from '../errors.js'

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/** Deepest nesting accepted; SCIM resources are three levels deep at most. */
const MAX_DEPTH = 16

export interface RawBody {
  readonly body: unknown
  readonly contentType: string | null
  /** An `auth.api` call hands the object itself; an HTTP request the text. */
  readonly isServerCall: boolean
}

/**
 * @example
 * const json = readScimBody({ body: ctx.body, contentType: ctx.headers.get('content-type'), isServerCall: ctx.isServerCall })
 */
export function readScimBody(raw: RawBody): Record<string, unknown> {
  let value = raw.body
  if (!raw.isServerCall || typeof value === 'string') {
    const type = (raw.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
    if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) throw new ScimError(ScimErrors.UNSUPPORTED_MEDIA_TYPE)
    const text = typeof value === 'string' ? value.replace(/^\uFEFF/, '') : ''
    if (text.trim() === '') throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: 'The request has no body' })
    try {
      value = JSON.parse(text) as unknown
    } catch {
      throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: 'The body is not valid JSON' })
    }
  }
  if (!isRecord(value)) throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: 'The body must be a JSON object' })
  checkKeys(value, 0)
  return value
}

function checkKeys(value: unknown, depth: number): void {
  if (depth > MAX_DEPTH) throw new ScimError(ScimErrors.INVALID_SYNTAX, { message: 'The body is nested too deeply' })
  if (Array.isArray(value)) {
    for (const item of value) checkKeys(item, depth + 1)
    return
  }
  if (!isRecord(value)) return
  for (const [key, item] of Object.entries(value)) {
    if (FORBIDDEN_KEYS.has(key) || key.split(/[.:]/).some((part) => FORBIDDEN_KEYS.has(part))) {
      throw new ScimError(ScimErrors.INVALID_PATH, { message: `"${key.slice(0, 64)}" is not an attribute` })
    }
    checkKeys(item, depth + 1)
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
