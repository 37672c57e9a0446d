/**
 * @module
 * Redirect URIs and the other URIs of a client's metadata: what registration
 * accepts, how an authorization's `redirect_uri` is matched, and how
 * responses are attached (docs/oidc-provider.md#registering-clients).
 *
 * A registered redirect URI must be absolute, without a fragment (RFC 6749
 * §3.1.2), a comma (the stored list is comma-separated) or credentials, and
 * already in the form the WHATWG URL parser gives back: the parser silently
 * drops tabs and newlines and lower-cases hosts, so a raw string that differs
 * from its parse would be stored, echoed and matched as something other than
 * what was checked. The scheme is https, or:
 *
 * - http on a loopback IP (127.0.0.1, [::1]) for every client: a native app
 *   listens there (RFC 8252 §7.3), and so does a developer's relying party;
 * - http on `localhost` for public clients only: RFC 8252 §8.3 and
 *   RFC 9700 §2.1 advise against it (the name may not resolve to loopback),
 *   and a confidential web client has no reason to use it;
 * - a private-use, reverse-domain scheme (`com.example.app:/cb`) for native
 *   public clients (RFC 8252 §7.1), never for others.
 *
 * At authorization time the URI must equal a registered one exactly: no
 * prefix, case, slash or port tolerance (RFC 9700 §4.1.3), except the port of
 * a loopback IP redirect URI of a native public client, which may be any
 * (RFC 8252 §7.3: the app picks a free port at run time).
 */
import type { ClientType } from '../options.js'

const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]'])
/** Any whitespace or control character (C0, DEL, C1), which the URL parser would drop or encode unseen. */
const UNSAFE_CHARACTERS = /[\s\u0000-\u001f\u007f-\u009f]/
/** RFC 8252 §7.1: a scheme based on a domain name the app's owner controls, reversed (`com.example.app`). */
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+:$/
/** Schemes a browser runs or reads locally: never a redirect target, even if they looked reverse-domain. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'blob:', 'vbscript:', 'about:'])

export type RedirectURICheck = { readonly ok: true } | { readonly ok: false; readonly reason: string }

/** Who registers the URI: what a native public client may use, a confidential client may not. */
export interface RedirectURIHolder {
  readonly type: ClientType
  /** True for `token_endpoint_auth_method: none`. */
  readonly isPublic: boolean
}

const WEB_CONFIDENTIAL: RedirectURIHolder = { type: 'web', isPublic: false }

/** Native apps without a secret: the only clients RFC 8252's loopback-port and private-use-scheme rules are for. */
export function isNativePublic(holder: RedirectURIHolder): boolean {
  return holder.type === 'native' && holder.isPublic
}

/**
 * @example
 * checkRedirectURI('https://rp.example.com/cb') // { ok: true }
 * checkRedirectURI('javascript:alert(1)')       // { ok: false, reason: 'Redirect URI must use https' }
 * checkRedirectURI('com.example.app:/cb', { type: 'native', isPublic: true }) // { ok: true }
 */
export function checkRedirectURI(uri: string, holder: RedirectURIHolder = WEB_CONFIDENTIAL): RedirectURICheck {
  if (UNSAFE_CHARACTERS.test(uri)) return { ok: false, reason: 'Redirect URI must not contain whitespace or control characters' }
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return { ok: false, reason: 'Redirect URI must be an absolute URL' }
  }
  if (url.protocol === 'http:') {
    const loopback = LOOPBACK_IPS.has(url.hostname) || (url.hostname === 'localhost' && holder.isPublic)
    if (!loopback) {
      const reason = url.hostname === 'localhost' ? 'use 127.0.0.1 or [::1] instead of localhost' : 'http only on a loopback IP'
      return { ok: false, reason: `Redirect URI must use https (${reason})` }
    }
  } else if (url.protocol !== 'https:') {
    const privateUse = isNativePublic(holder) && REVERSE_DOMAIN_SCHEME.test(url.protocol) && !FORBIDDEN_SCHEMES.has(url.protocol)
    if (!privateUse) {
      const hint = isNativePublic(holder) ? ' (or a reverse-domain private-use scheme such as com.example.app:/callback)' : ''
      return { ok: false, reason: `Redirect URI must use https${hint}` }
    }
  }
  if (uri.includes('#')) return { ok: false, reason: 'Redirect URI must not contain a fragment' }
  if (uri.includes(',')) return { ok: false, reason: 'Redirect URI must not contain a comma' }
  if (url.username || url.password) return { ok: false, reason: 'Redirect URI must not carry credentials' }
  if (url.href !== uri) return { ok: false, reason: `Redirect URI must be written as ${url.href}` }
  return { ok: true }
}

/**
 * A URI of the client's metadata that people follow or that is fetched
 * (`client_uri`, `policy_uri`, `tos_uri`, `logo_uri`): absolute https,
 * without whitespace, control characters or credentials (RFC 7591 §2, §5).
 * Answers the parsed `href`, the only form stored: a consent page or an
 * operator's console can then put it in a link or an `img` without
 * `javascript:`, `data:` or markup getting through.
 *
 * @example
 * checkMetadataURI('https://rp.example.com/privacy') // { ok: true, href: 'https://rp.example.com/privacy' }
 * checkMetadataURI('javascript:alert(1)')            // { ok: false, reason: 'must be an https URL' }
 */
export function checkMetadataURI(uri: string): { readonly ok: true; readonly href: string } | { readonly ok: false; readonly reason: string } {
  if (UNSAFE_CHARACTERS.test(uri)) return { ok: false, reason: 'must not contain whitespace or control characters' }
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return { ok: false, reason: 'must be an absolute URL' }
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'must be an https URL' }
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' }
  return { ok: true, href: url.href }
}

/** A loopback IP URI without its port, for the any-port comparison of RFC 8252 §7.3; null for any other URI. */
function withoutLoopbackPort(uri: string): string | null {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' || !LOOPBACK_IPS.has(url.hostname)) return null
  url.port = ''
  return url.href
}

/**
 * Exact string comparison, the only match RFC 9700 §4.1.3 allows; for a
 * native public client (`holder`), a loopback IP redirect URI matches on any
 * port (RFC 8252 §7.3), everything else about it still exactly.
 *
 * @example
 * isRegistered(['http://127.0.0.1/cb'], 'http://127.0.0.1:51004/cb', { type: 'native', isPublic: true }) // true
 */
export function isRegistered(registered: readonly string[], uri: string, holder?: RedirectURIHolder): boolean {
  if (registered.includes(uri)) return true
  if (!holder || !isNativePublic(holder) || UNSAFE_CHARACTERS.test(uri)) return false
  const portless = withoutLoopbackPort(uri)
  if (portless === null) return false
  // The presented URI must itself be canonical, so what is matched is what the browser is sent to.
  if (new URL(uri).href !== uri) return false
  return registered.some((candidate) => withoutLoopbackPort(candidate) === portless)
}

/**
 * `uri` with `params` added to its query, keeping the query it already has
 * byte for byte (RFC 6749 §3.1.2: the registered URI's query is retained).
 * Undefined values are left out; values are percent-encoded, so a `state`
 * with `&`, `=`, `+` or spaces comes back to the client exactly.
 *
 * @example
 * withParams('https://rp.test/cb?x=a%20b', { code: 'abc', state: undefined }) // 'https://rp.test/cb?x=a%20b&code=abc'
 */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const added = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined) added.append(key, value)
  const text = added.toString()
  if (!text) return uri
  // Registered URIs carry no fragment (checkRedirectURI); should one get here, the query still goes before it.
  const hash = uri.indexOf('#')
  const base = hash === -1 ? uri : uri.slice(0, hash)
  const fragment = hash === -1 ? '' : uri.slice(hash)
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&'
  return `${base}${separator}${text}${fragment}`
}
