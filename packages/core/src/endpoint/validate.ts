/**
 * @module
 * Input validation: zod parses body and query; a failure is a 400 whose
 * message names the field. Redirect targets
 * (docs/security.md#redirect-targets-securityredirectsts) are checked here
 * once for every endpoint, so no route can forget it.
 */
import type { z } from 'zod'
import { AuthError, type ErrorDefinition } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { checkRedirectTarget } from '../security/redirects.js'

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

/** Each redirect-bearing field has its own 403 message, naming the field. */
const redirectFields: ReadonlyArray<readonly [string, ErrorDefinition]> = [
  ['callbackURL', CoreErrors.INVALID_CALLBACK_URL],
  ['redirectTo', CoreErrors.INVALID_REDIRECT_URL],
  ['errorCallbackURL', CoreErrors.INVALID_ERROR_CALLBACK_URL],
  ['newUserCallbackURL', CoreErrors.INVALID_NEW_USER_CALLBACK_URL],
]

export function checkRedirectFields(input: unknown, isTrustedOrigin: (origin: string) => boolean): void {
  if (typeof input !== 'object' || input === null) return
  const record = input as Record<string, unknown>
  for (const [field, error] of redirectFields) {
    const value = record[field]
    if (value === undefined || value === null) continue
    if (typeof value !== 'string' || !checkRedirectTarget(value, isTrustedOrigin).ok) throw new AuthError(error)
  }
}
