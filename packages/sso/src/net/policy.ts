/**
 * @module
 * What a URL must look like before the SSO fetch will try it
 * (docs/sso.md#urls-the-server-fetches), checked without any I/O: when a provider is
 * registered (so the admin hears about a bad URL at once) and again on every hop of every
 * fetch. The address a host name resolves to is checked later, at connect time, in
 * `safe-fetch.ts`: a name's answer at registration says nothing about its answer at
 * sign-in (DNS rebinding).
 */
import { isIP } from 'node:net'
import { refusedAddressRange } from './address.js'
import { UnsafeUrlError } from './unsafe-url-error.js'

/** One answer of a name lookup, as `node:dns` `lookup(name, { all: true })` gives it. */
export interface ResolvedAddress {
  readonly address: string
  readonly family: number
}

export interface SafeFetchPolicy {
  /**
   * True for a URL whose origin (scheme, host and port) the deployment trusts, such as an
   * internal IdP: plain http is allowed there and its addresses are not checked. Match
   * the origin exactly (see `exactOrigins`); trusting a whole host or a pattern trusts
   * every port and path on it.
   */
  readonly trustedOrigins: (url: URL) => boolean
  /** The whole exchange, every redirect and the body included. Default 5000 ms. */
  readonly timeoutMs?: number
  /** Largest response body accepted, after decompression. Default 1 MiB. */
  readonly maxBytes?: number
  /** Redirects followed before giving up. Default 3. */
  readonly maxRedirects?: number
  /** Resolves a host name to every address it has. Default `node:dns` lookup (all, verbatim); tests inject one. */
  readonly lookup?: (hostname: string) => Promise<readonly ResolvedAddress[]>
}

export type FetchableUrl =
  | { readonly ok: true; readonly url: URL; readonly trusted: boolean }
  | { readonly ok: false; readonly error: UnsafeUrlError }

/** The URL without credentials, for messages and logs. */
export function displayUrl(url: URL): string {
  if (url.username === '' && url.password === '') return url.href
  const copy = new URL(url.href)
  copy.username = ''
  copy.password = ''
  return copy.href
}

/** The host as a socket takes it: an IPv6 literal without its brackets. */
export function socketHost(url: URL): string {
  const host = url.hostname
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
}

/**
 * The checks that need no lookup: the URL parses, carries no credentials, is https (or
 * http(s) on a trusted origin), and, unless trusted, its host is neither a refused IP
 * literal nor a `localhost` name (RFC 6761 §6.3 makes those loopback everywhere).
 *
 * @example
 * const checked = checkFetchableUrl(body.oidcConfig.discoveryEndpoint, policy)
 * if (!checked.ok) return { ok: false, reason: checked.error.reason }
 */
export function checkFetchableUrl(input: string | URL, policy: Pick<SafeFetchPolicy, 'trustedOrigins'>): FetchableUrl {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return { ok: false, error: new UnsafeUrlError('invalid_url', String(input).slice(0, 200), 'Not an absolute URL') }
  }
  const shown = displayUrl(url)
  if (url.username !== '' || url.password !== '') {
    return { ok: false, error: new UnsafeUrlError('invalid_url', shown, 'URL carries credentials') }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, error: new UnsafeUrlError('scheme', shown, `Scheme ${url.protocol} is not fetched`) }
  }
  const trusted = policy.trustedOrigins(url)
  if (trusted) return { ok: true, url, trusted }
  if (url.protocol !== 'https:') {
    return { ok: false, error: new UnsafeUrlError('scheme', shown, 'Only https is fetched outside trustedOrigins') }
  }
  const host = socketHost(url)
  if (isIP(host) !== 0) {
    const range = refusedAddressRange(host)
    if (range !== null) {
      return { ok: false, error: new UnsafeUrlError('address', shown, `Address ${host} is ${range}`) }
    }
  } else if (/(?:^|\.)localhost\.?$/.test(host)) {
    return { ok: false, error: new UnsafeUrlError('address', shown, `${host} is loopback`) }
  }
  return { ok: true, url, trusted }
}

/**
 * `checkFetchableUrl` that throws its `UnsafeUrlError` and returns the parsed URL: for
 * registration, where each refusal is a 400. The connect-time address check still runs
 * at every fetch.
 *
 * @example
 * const discovery = assertFetchableUrl(body.oidcConfig.discoveryEndpoint, { trustedOrigins })
 */
export function assertFetchableUrl(input: string | URL, policy: Pick<SafeFetchPolicy, 'trustedOrigins'>): URL {
  const checked = checkFetchableUrl(input, policy)
  if (!checked.ok) throw checked.error
  return checked.url
}

/**
 * A `trustedOrigins` predicate for a list of origins, compared exactly (scheme, host and
 * port). Entries that do not parse as URLs are ignored.
 *
 * @example
 * const trustedOrigins = exactOrigins(['http://127.0.0.1:4000', 'https://idp.corp.internal'])
 * trustedOrigins(new URL('http://127.0.0.1:4000/.well-known/openid-configuration')) // true
 * trustedOrigins(new URL('http://127.0.0.1:4001/')) // false
 */
export function exactOrigins(origins: readonly string[]): (url: URL) => boolean {
  const set = new Set<string>()
  for (const origin of origins) {
    try {
      const parsed = new URL(origin)
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') set.add(parsed.origin)
    } catch {
      // Not a URL: it names no origin to trust.
    }
  }
  return (url) => set.has(url.origin)
}
