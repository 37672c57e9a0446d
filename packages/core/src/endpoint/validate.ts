/**
 * @module
 * Input validation: zod parses body and query; a failure is a 400 whose
 * message names the field. Redirect targets
 * (docs/security.md#redirect-targets-securityredirectsts) are checked here
 * once for every endpoint, so no route can forget it, and capped in length
 * (`MAX_REDIRECT_URL_LENGTH`): they are stored in OAuth state rows and
 * written into mailed links.
 */
import type { z } from 'zod'
import { AuthError, type ErrorDefinition } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { checkRedirectTarget } from '../security/redirects.js'
import { MAX_REDIRECT_URL_LENGTH, tooLongMessage } from './input-limits.js'

export function parseInput(schema: z.ZodType | undefined, value: unknown, where: 'body' | 'query'): unknown {
  if (!schema) return value
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues = result.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }))
  const first = issues[0]
  throw new AuthError(CoreErrors.VALIDATION_ERROR, {
    message: first ? `${first.path}: ${first.message}` : `Invalid ${where}`,
    details: { issues },
  })
}

/**
 * The 400 of one field that failed a check written by hand, shaped like
 * parseInput's (`"body.plan: expected string"`, with the issue in `details`).
 *
 * @example
 * throw fieldError('body.plan', 'expected string')
 */
export function fieldError(path: string, message: string): AuthError {
  return new AuthError(CoreErrors.VALIDATION_ERROR, { message: `${path}: ${message}`, details: { issues: [{ path, message }] } })
}

/** Each redirect-bearing field has its own 403 message, naming the field. */
const redirectFields: ReadonlyArray<readonly [string, ErrorDefinition]> = [
  ['callbackURL', CoreErrors.INVALID_CALLBACK_URL],
  ['redirectTo', CoreErrors.INVALID_REDIRECT_URL],
  ['errorCallbackURL', CoreErrors.INVALID_ERROR_CALLBACK_URL],
  ['newUserCallbackURL', CoreErrors.INVALID_NEW_USER_CALLBACK_URL],
]

export function checkRedirectFields(input: unknown, isTrustedOrigin: (origin: string) => boolean, where: 'body' | 'query'): void {
  if (typeof input !== 'object' || input === null) return
  const record = input as Record<string, unknown>
  for (const [field, error] of redirectFields) {
    const value = record[field]
    if (value === undefined || value === null) continue
    if (typeof value === 'string' && value.length > MAX_REDIRECT_URL_LENGTH) {
      throw fieldError(`${where}.${field}`, tooLongMessage(MAX_REDIRECT_URL_LENGTH))
    }
    if (typeof value !== 'string' || !checkRedirectTarget(value, isTrustedOrigin).ok) throw new AuthError(error)
  }
}
