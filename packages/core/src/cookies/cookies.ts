/**
 * @module
 * Cookie naming and signing policy.
 *
 * Names are `${prefix}.${name}`, and over HTTPS they carry a prefix that the
 * browser enforces (docs/security.md#cookie-tossing-from-a-sibling-subdomain).
 * With no Domain (the default) it is `__Host-`: the browser accepts such a
 * cookie only with `Secure`, `Path=/` and no `Domain`, set by this very host,
 * so neither a network attacker on plain HTTP nor a sibling subdomain (user
 * content, a compromised marketing site) can plant one that our requests
 * would read as the session. With a Domain (`crossSubDomainCookies`) the
 * cookie is meant to be shared with the siblings, and `__Secure-` is the most
 * the browser allows: it only keeps plain-HTTP writers out. Defaults are `HttpOnly` (scripts, and so
 * XSS, cannot read the token), `SameSite=Lax` (no cookie on cross-site POSTs, a
 * first CSRF barrier beside the origin check, docs/security.md) and `Path=/`.
 *
 * Signed values are `value.signature` with an HMAC-SHA256 signature (see
 * `crypto/hmac.ts`), so a cookie that was tampered with, or forged without the
 * secret, is rejected before any database lookup.
 */

import { sign, verify } from '../crypto/hmac.js'
import { type CookieAttributes, serializeCookie } from './cookie-header.js'

/** A cookie's full name and the attributes it is always set with. */
export interface CookieDefinition {
  readonly name: string
  readonly attributes: Readonly<CookieAttributes>
  /** A `Set-Cookie` value; without a lifetime it is a browser-session cookie (remember-me off). */
  serialize(value: string, lifetime?: { maxAge?: number; expires?: Date }): string
  /** A `Set-Cookie` value that deletes the cookie (empty, Max-Age=0, as sign-out does). */
  clear(): string
}

export interface CookieConfig {
  /** Whether cookies are set `Secure` (and named with `__Host-`, or `__Secure-` with a Domain). */
  readonly secure: boolean
  readonly sessionToken: CookieDefinition
  readonly sessionData: CookieDefinition
  readonly dontRemember: CookieDefinition
  /** Any other cookie (OAuth state, plugin cookies) under the same policy. */
  cookie(name: string, attributes?: CookieAttributes): CookieDefinition
}

export interface CookieConfigOptions {
  /** Default `'gatehouse'`. */
  prefix?: string
  /** True when the base URL is https; may be overridden (e.g. false behind a dev proxy). */
  secure: boolean
  /** Share cookies with every subdomain of `domain` (sets the Domain attribute). */
  crossSubDomain?: { domain: string }
  /** Attributes applied on top of the defaults for every cookie. */
  attributes?: CookieAttributes
}

const NAME_PART = /^[A-Za-z0-9_-]+$/
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/**
 * Builds the cookie policy once, at start-up.
 *
 * @example
 * const cookies = createCookieConfig({ secure: baseURL.startsWith('https:') })
 * cookies.sessionToken.name // '__Host-gatehouse.session_token'
 * headers.append('set-cookie', cookies.sessionToken.serialize(signed, { maxAge: 604800 }))
 */
export function createCookieConfig(options: CookieConfigOptions): CookieConfig {
  const prefix = options.prefix ?? 'gatehouse'
  if (!NAME_PART.test(prefix) || prefix.startsWith('__')) {
    // '__' is reserved for the browser-enforced __Secure- / __Host- prefixes.
    throw new TypeError(`Invalid cookie prefix: ${JSON.stringify(prefix)}`)
  }
  const base: CookieAttributes = { httpOnly: true, sameSite: 'lax', path: '/' }
  if (options.secure) base.secure = true
  if (options.crossSubDomain) base.domain = normalizeDomain(options.crossSubDomain.domain)
  const shared = { ...base, ...options.attributes }

  function cookie(name: string, attributes?: CookieAttributes): CookieDefinition {
    if (!NAME_PART.test(name)) throw new TypeError(`Invalid cookie name: ${JSON.stringify(name)}`)
    // Lifetimes are per call (serialize/clear), never part of the fixed policy.
    const { maxAge: _maxAge, expires: _expires, ...fixed }: CookieAttributes = { ...shared, ...attributes }
    const fullName = `${namePrefix(fixed)}${prefix}.${name}`
    return {
      name: fullName,
      attributes: Object.freeze({ ...fixed }),
      serialize: (value, lifetime) => serializeCookie(fullName, value, { ...fixed, ...lifetime }),
      clear: () => serializeCookie(fullName, '', { ...fixed, maxAge: 0 }),
    }
  }

  // Definitions without per-call attributes are the common case on every request: make each once.
  const plain = new Map<string, CookieDefinition>()
  function cached(name: string, attributes?: CookieAttributes): CookieDefinition {
    if (attributes !== undefined) return cookie(name, attributes)
    let definition = plain.get(name)
    if (!definition) {
      definition = cookie(name)
      plain.set(name, definition)
    }
    return definition
  }

  return {
    secure: shared.secure === true,
    sessionToken: cookie('session_token'),
    sessionData: cookie('session_data'),
    dontRemember: cookie('dont_remember'),
    cookie: cached,
  }
}

/**
 * The prefix follows the attributes actually sent, as browsers silently drop
 * a prefixed cookie whose attributes do not match it (RFC 6265bis §4.1.3):
 * `__Host-` needs Secure, Path=/ and no Domain; `__Secure-` needs Secure.
 */
function namePrefix(attributes: CookieAttributes): string {
  if (!attributes.secure) return ''
  return attributes.domain === undefined && attributes.path === '/' ? '__Host-' : '__Secure-'
}

function normalizeDomain(domain: string): string {
  const normalized = domain.trim().toLowerCase().replace(/^\./, '')
  if (!DOMAIN.test(normalized)) throw new TypeError(`Invalid cookie domain: ${JSON.stringify(domain)}`)
  return normalized
}

/**
 * Appends an HMAC signature: `value.signature`. The signature alphabet is
 * base64url, so the result is cookie-safe whenever `value` is; other values are
 * percent-encoded by the serializer.
 *
 * @example
 * const signed = signCookieValue(sessionToken, secrets.key('cookie-signature'))
 */
export function signCookieValue(value: string, key: Uint8Array): string {
  return `${value}.${sign(value, key)}`
}

/**
 * The value part of a signed cookie, NOT verified: for the one reader whose
 * check does not depend on the signature (the cookie cache binds to the
 * token's hash; see session/session-cookies.ts). Null without a signature part.
 *
 * @example
 * const token = unverifiedCookieValue(cookies.get('session_token'))
 */
export function unverifiedCookieValue(signed: string | null | undefined): string | null {
  if (!signed) return null
  const dot = signed.lastIndexOf('.')
  return dot <= 0 ? null : signed.slice(0, dot)
}

/**
 * The value inside a signed cookie, or null when it is empty, has no signature,
 * or was not signed by any of `keys` (tampered, forged, or signed with a secret
 * that has since been dropped). The value may itself contain dots: the signature
 * is everything after the last one.
 *
 * @example
 * const token = verifySignedCookieValue(cookies.get(config.sessionToken.name), secrets.keys('cookie-signature'))
 * if (token === null) return null
 */
export function verifySignedCookieValue(
  signed: string | null | undefined,
  keys: readonly Uint8Array[],
): string | null {
  if (!signed) return null
  const dot = signed.lastIndexOf('.')
  if (dot <= 0) return null
  const value = signed.slice(0, dot)
  return verify(value, signed.slice(dot + 1), keys) ? value : null
}

/**
 * The short name of the cookie that marks the browser which asked for a
 * sign-in link (session/link-binding.ts). It authorizes nothing, so the
 * origin check does not count it as a credential (endpoint/handler.ts).
 */
export const LINK_BINDING_COOKIE = 'link_binding'
