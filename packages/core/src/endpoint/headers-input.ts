/**
 * @module
 * Request headers in the shapes servers hand them over: web `Headers`, pairs,
 * a plain record, or node:http's parsed `req.headers` (`IncomingHttpHeaders`),
 * whose repeated headers are arrays and whose absent ones may be `undefined`.
 * `auth.api` accepts all of them (docs/endpoints.md#api-calls),
 * so a plain node:http server reads the session with `{ headers: req.headers }`.
 * No node import here: the edge build of `auth.api` uses it too.
 */

/** node:http's `req.headers`, or any record of that shape. */
export type NodeHeaders = Readonly<Record<string, string | readonly string[] | undefined>>

/** What `auth.api` calls take as `headers`. */
export type HeadersInput = HeadersInit | NodeHeaders

/**
 * Web `Headers` from any of the shapes above. Repeated values are kept:
 * Cookie lines are joined with "; " (RFC 6265 §5.4: one Cookie header;
 * joined with ", " the second cookie would read as part of the first one's
 * value), Set-Cookie lines stay separate, others are joined with ", " as the
 * Fetch standard does.
 *
 * @example
 * import { toHeaders } from '@gatehouse/core/node'
 * createServer(async (req, res) => {
 *   const session = await auth.api.getSession({ headers: toHeaders(req.headers) })
 * })
 */
export function toHeaders(input: HeadersInput | undefined): Headers {
  // Headers, a HeaderMap, arrays of pairs: anything iterable is what the Headers constructor reads.
  if (input === undefined || Symbol.iterator in input) return new Headers(input as HeadersInit | undefined)
  const headers = new Headers()
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined) continue
    if (typeof value === 'string') headers.append(name, value)
    else if (name.toLowerCase() === 'cookie') headers.append(name, value.join('; '))
    else for (const item of value) headers.append(name, item)
  }
  return headers
}
