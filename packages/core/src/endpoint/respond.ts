/**
 * @module
 * Turns what a handler returned, or threw, into a web-standard Response:
 * data becomes JSON, a returned Response passes through, an `AuthError`
 * becomes `{ code, message }` with its catalogue status. Unexpected errors
 * are logged by name and message only and answered with a bare 500, so no
 * stack, query or secret leaves the server.
 */
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import type { Logger } from './logger.js'

export function toResponse(returned: unknown, cookies: readonly string[], extra: Headers): Response {
  if (returned instanceof Response) {
    const headers = new Headers(returned.headers)
    mergeHeaders(headers, cookies, extra)
    return new Response(returned.body, { status: returned.status, statusText: returned.statusText, headers })
  }
  const headers = new Headers({ 'content-type': 'application/json' })
  mergeHeaders(headers, cookies, extra)
  return new Response(JSON.stringify(returned ?? null), { status: 200, headers })
}

export function errorResponse(error: unknown, cookies: readonly string[], extra: Headers, logger: Logger): Response {
  const authError = toAuthError(error, logger)
  const headers = new Headers({ 'content-type': 'application/json' })
  mergeHeaders(headers, cookies, extra)
  for (const [name, value] of Object.entries(authError.headers ?? {})) headers.set(name, value)
  return new Response(JSON.stringify(authError.toJSON()), { status: authError.status, headers })
}

export function toAuthError(error: unknown, logger: Logger): AuthError {
  if (error instanceof AuthError) return error
  logger.error('unhandled error in endpoint', {
    name: error instanceof Error ? error.name : typeof error,
    message: error instanceof Error ? error.message : undefined,
  })
  return new AuthError(CoreErrors.INTERNAL_SERVER_ERROR, { cause: error })
}

function mergeHeaders(target: Headers, cookies: readonly string[], extra: Headers): void {
  for (const [name, value] of extra) target.set(name, value)
  for (const cookie of cookies) target.append('set-cookie', cookie)
}
