/**
 * @module
 * Reading the `Cookie` request header and writing `Set-Cookie` values
 * (RFC 6265 and its successor draft RFC 6265bis).
 *
 * The parser is ours rather than oslo's `parseCookies` because that one throws
 * `URIError` on a malformed percent sequence (one bad cookie from another app on
 * the same domain would then break every request) and splits values at every
 * '=' (dropping the tail of base64 values). This parser never throws: it is fed
 * attacker-controlled input on every request.
 *
 * The serializer validates what it writes: a name outside the RFC 6265 token
 * grammar, or a `;` smuggled into Path or Domain, would let one attribute inject
 * others, so those throw instead of being emitted.
 */

export type SameSite = 'lax' | 'strict' | 'none'

export interface CookieAttributes {
  /** Seconds until expiry; capped at {@link MAX_COOKIE_AGE_SECONDS}. 0 deletes the cookie. */
  maxAge?: number
  expires?: Date
  path?: string
  domain?: string
  sameSite?: SameSite
  secure?: boolean
  httpOnly?: boolean
  /** CHIPS: key the cookie by the top-level site. Requires `secure`. */
  partitioned?: boolean
}

/** RFC 6265bis §5.5: browsers cap cookie lifetimes at 400 days anyway. */
export const MAX_COOKIE_AGE_SECONDS = 400 * 24 * 60 * 60

/** RFC 6265 §4.1.1 cookie-name is an RFC 2616 token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
/** Path and Domain values may not contain ';' or control characters (RFC 6265 §4.1.1 av-octet). */
const ATTRIBUTE_VALUE = /^[\x20-\x3a\x3c-\x7e]*$/

/**
 * Parses a `Cookie` header into a map of name to value. Never throws.
 *
 * - pairs are separated by ';' with or without the following space;
 * - the value is everything after the first '=', so '=' inside values survives;
 * - names and values are trimmed, and a value wrapped in double quotes is unwrapped;
 * - values are percent-decoded; a malformed sequence keeps the raw value;
 * - the first occurrence of a name wins, as in most servers: RFC 6265 §5.4 has
 *   browsers list the cookie with the longest matching path first. A sibling
 *   subdomain can toss in a cookie of the same name that way, listed first;
 *   over HTTPS without a cookie Domain the names carry `__Host-`, which the
 *   browser lets no other host set, so the duplicate cannot be made at all
 *   (docs/security.md#cookie-tossing-from-a-sibling-subdomain);
 * - pieces without '=' or with an empty name are skipped.
 *
 * @example
 * const cookies = parseCookieHeader(request.headers.get('cookie'))
 * const signedToken = cookies.get('__Host-gatehouse.session_token') ?? null
 */
export function parseCookieHeader(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>()
  if (!header) return cookies
  for (const piece of header.split(';')) {
    const equals = piece.indexOf('=')
    if (equals === -1) continue
    const name = piece.slice(0, equals).trim()
    if (name === '' || cookies.has(name)) continue
    let raw = piece.slice(equals + 1).trim()
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) raw = raw.slice(1, -1)
    cookies.set(name, decode(raw))
  }
  return cookies
}

function decode(raw: string): string {
  if (!raw.includes('%')) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/**
 * Builds a `Set-Cookie` header value. The value is percent-encoded, so any string
 * round-trips through {@link parseCookieHeader}.
 *
 * @example
 * headers.append('set-cookie', serializeCookie('gatehouse.session_token', token, {
 *   httpOnly: true, sameSite: 'lax', path: '/', maxAge: 7 * 24 * 3600,
 * }))
 * // gatehouse.session_token=...; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax
 */
export function serializeCookie(name: string, value: string, attributes: CookieAttributes = {}): string {
  if (!TOKEN.test(name)) throw new TypeError(`Invalid cookie name: ${JSON.stringify(name)}`)
  const parts = [`${name}=${encodeURIComponent(value)}`]
  if (attributes.maxAge !== undefined) {
    if (Number.isNaN(attributes.maxAge)) throw new TypeError('Cookie maxAge must be a number')
    const seconds = Math.min(Math.max(Math.floor(attributes.maxAge), 0), MAX_COOKIE_AGE_SECONDS)
    parts.push(`Max-Age=${seconds}`)
  }
  if (attributes.expires !== undefined) {
    if (Number.isNaN(attributes.expires.getTime())) throw new TypeError('Cookie expires must be a valid date')
    parts.push(`Expires=${attributes.expires.toUTCString()}`)
  }
  if (attributes.domain !== undefined) parts.push(`Domain=${checkedAttribute('Domain', attributes.domain)}`)
  if (attributes.path !== undefined) parts.push(`Path=${checkedAttribute('Path', attributes.path)}`)
  if (attributes.httpOnly) parts.push('HttpOnly')
  if (attributes.secure) parts.push('Secure')
  if (attributes.sameSite !== undefined) {
    // Browsers drop SameSite=None cookies without Secure; fail loudly instead of silently.
    if (attributes.sameSite === 'none' && !attributes.secure) {
      throw new TypeError('A SameSite=None cookie must also be Secure')
    }
    parts.push(`SameSite=${SAME_SITE[attributes.sameSite]}`)
  }
  if (attributes.partitioned) {
    if (!attributes.secure) throw new TypeError('A Partitioned cookie must also be Secure')
    parts.push('Partitioned')
  }
  return parts.join('; ')
}

const SAME_SITE: Record<SameSite, string> = { lax: 'Lax', strict: 'Strict', none: 'None' }

function checkedAttribute(label: string, value: string): string {
  if (value === '' || !ATTRIBUTE_VALUE.test(value)) {
    throw new TypeError(`Invalid cookie ${label}: ${JSON.stringify(value)}`)
  }
  return value
}
