/**
 * @module
 * Turns what a handler returned, or threw, into the response to send: data
 * becomes JSON, a returned Response passes through, an `AuthError` becomes
 * `{ code, message }` with its catalogue status. A transient database or
 * storage fault becomes 503 with `Retry-After`. A missing table or column
 * is logged with the migration that adds it (db/missing-schema.ts).
 * Unexpected errors are logged by name and message only and answered with a bare 500, so no
 * stack, query or secret leaves the server. The result is a plain
 * `Outgoing`; the web handler wraps it in a `Response`, the node:http glue
 * writes it directly.
 */
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { transientFault } from '../db/transient.js'
import { describeMissingSchema, findMissingSchema } from '../db/missing-schema.js'
import { toJsonText } from './json-text.js'
import type { AuthContext } from './context.js'

/** What error handling reads of the auth context: the logger, and the schema to name a missing table's origin. */
export type ErrorSite = Pick<AuthContext, 'logger' | 'schema' | 'plugins' | 'adapter'>

export interface Outgoing {
  readonly status: number
  /** Every header line, Set-Cookie lines included. */
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string | ReadableStream<Uint8Array> | null
}

const JSON_TYPE = ['content-type', 'application/json'] as const

/**
 * Whether a handler returned a web Response. Plain data (null, primitives,
 * arrays, object literals) is answered without reading the global
 * `Response`: on Node its first read loads the fetch implementation, about
 * 20 ms that would otherwise land on a server's first request.
 */
function isResponse(returned: unknown): returned is Response {
  if (typeof returned !== 'object' || returned === null || Array.isArray(returned)) return false
  const prototype: unknown = Object.getPrototypeOf(returned)
  if (prototype === Object.prototype || prototype === null) return false
  return returned instanceof Response
}

export function toOutgoing(returned: unknown, cookies: readonly string[], extra: Headers): Outgoing {
  if (isResponse(returned)) {
    const headers: Array<readonly [string, string]> = []
    for (const pair of returned.headers) headers.push(pair)
    return { status: returned.status, headers: withExtra(headers, cookies, extra), body: returned.body }
  }
  return { status: 200, headers: withExtra([JSON_TYPE], cookies, extra), body: toJsonText(returned ?? null) }
}

export function errorOutgoing(error: unknown, cookies: readonly string[], extra: Headers, site: ErrorSite): Outgoing {
  const authError = toAuthError(error, site)
  const headers = withExtra([JSON_TYPE], cookies, extra)
  for (const [name, value] of Object.entries(authError.headers ?? {})) headers.push([name.toLowerCase(), value])
  return { status: authError.status, headers, body: JSON.stringify(authError.toJSON()) }
}

export function toWebResponse(outgoing: Outgoing): Response {
  const headers = new Headers()
  for (const [name, value] of outgoing.headers) headers.append(name, value)
  return new Response(outgoing.body, { status: outgoing.status, headers })
}

export function toResponse(returned: unknown, cookies: readonly string[], extra: Headers): Response {
  return toWebResponse(toOutgoing(returned, cookies, extra))
}

export function errorResponse(error: unknown, cookies: readonly string[], extra: Headers, site: ErrorSite): Response {
  return toWebResponse(errorOutgoing(error, cookies, extra, site))
}

export function toAuthError(error: unknown, site: ErrorSite): AuthError {
  if (error instanceof AuthError) return error
  const { logger } = site
  const fault = transientFault(error)
  if (fault) {
    // Retryable, not a bug (docs/core.md#transient-faults): 503 with Retry-After (RFC 9110 §15.6.4), no stack.
    logger.warn('database or storage temporarily unavailable: answered 503', {
      kind: fault.kind,
      message: error instanceof Error ? error.message : undefined,
    })
    return new AuthError(CoreErrors.SERVICE_UNAVAILABLE, {
      headers: { 'Retry-After': String(fault.retryAfterSeconds) },
      cause: error,
    })
  }
  const missing = findMissingSchema(error)
  if (missing) {
    // A plugin added without its migration (docs/getting-started.md#3-create-the-tables): say what to run, not only the driver's words.
    const line = describeMissingSchema(missing, { schema: site.schema, plugins: site.plugins, adapterId: site.adapter.id })
    logger.error(line.message, line.meta)
    return new AuthError(CoreErrors.INTERNAL_SERVER_ERROR, { cause: error })
  }
  logger.error('unhandled error in endpoint', {
    name: error instanceof Error ? error.name : typeof error,
    message: error instanceof Error ? error.message : undefined,
  })
  return new AuthError(CoreErrors.INTERNAL_SERVER_ERROR, { cause: error })
}

/** Extra headers replace same-named ones from the response; cookies are appended. */
function withExtra(
  base: Array<readonly [string, string]>,
  cookies: readonly string[],
  extra: Headers,
): Array<readonly [string, string]> {
  let headers = base
  for (const [name, value] of extra) {
    headers = headers.filter(([existing]) => existing !== name)
    headers.push([name, value])
  }
  for (const cookie of cookies) headers.push(['set-cookie', cookie])
  return headers
}
