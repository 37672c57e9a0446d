/**
 * @module
 * Input of the OAuth endpoints. Their bodies and queries are checked by
 * hand rather than by a zod schema, so a bad request answers with the OAuth
 * error object (RFC 6749 §5.2) instead of core's validation error; these
 * helpers read one string parameter and refuse a repeated one.
 */
import { z } from 'zod'
import { OAuthError, OidcErrors } from '../errors.js'

/** A form or JSON body, or a query: any object, read field by field. */
export const oauthParams = z.lazy(() => z.record(z.string(), z.unknown()).optional())

export type OAuthParams = Readonly<Record<string, unknown>>

/** The value of `name`, or undefined when absent or empty; 400 invalid_request when repeated or not a string. */
export function param(params: OAuthParams | undefined, name: string): string | undefined {
  const value = params?.[name]
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string') throw new OAuthError(OidcErrors.INVALID_REQUEST, { message: `${name} must be a single string` })
  return value
}

export function requiredParam(params: OAuthParams | undefined, name: string): string {
  const value = param(params, name)
  if (value === undefined) throw new OAuthError(OidcErrors.INVALID_REQUEST, { message: `${name} is required` })
  return value
}

/** RFC 6749 §5.1: token replies and errors must not be cached. */
export function noStore(headers: Headers): void {
  headers.set('cache-control', 'no-store')
  headers.set('pragma', 'no-cache')
}
