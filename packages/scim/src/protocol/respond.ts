/**
 * @module
 * SCIM answers (RFC 7644 §3.1, §3.12): JSON as `application/scim+json`,
 * never cached (a directory's answers carry people's data), with `Location`
 * and `ETag` where the RFC asks for them. Errors are `ScimError`s turned into
 * the SCIM error body here; a 401 carries the Bearer challenge of RFC 6750
 * §3. Anything else (a database fault) is left to core, which answers 503 or
 * 500 in its own shape and logs it.
 */
import { ScimError } from '../errors.js'
import { SCIM_MEDIA_TYPE } from './constants.js'

export interface ScimAnswer {
  readonly status?: number
  readonly location?: string
  readonly etag?: string
}

/**
 * @example
 * return scimJson(resource, { status: 201, location: resource.meta.location, etag: resource.meta.version })
 */
export function scimJson(body: unknown, answer: ScimAnswer = {}): Response {
  const headers: Record<string, string> = { 'content-type': SCIM_MEDIA_TYPE, 'cache-control': 'no-store' }
  if (answer.location) headers.location = answer.location
  if (answer.etag) headers.etag = answer.etag
  return new Response(JSON.stringify(body), { status: answer.status ?? 200, headers })
}

/** 204 No Content: a DELETE's answer (RFC 7644 §3.6). */
export function scimNoContent(): Response {
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } })
}

/** The SCIM error body of `error`, with the Bearer challenge on a 401. */
export function scimErrorResponse(error: ScimError): Response {
  const headers: Record<string, string> = { 'content-type': SCIM_MEDIA_TYPE, 'cache-control': 'no-store' }
  if (error.status === 401) headers['www-authenticate'] = 'Bearer realm="SCIM"'
  return new Response(JSON.stringify(error.toJSON()), { status: error.status, headers })
}
