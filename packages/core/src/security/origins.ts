/**
 * @module
 * Trusted origins (docs/security.md#trusted-origins-securityoriginsts): which sites may send us
 * cookie-bearing POSTs and which absolute URLs we may redirect to.
 *
 * Everything is compared on parsed values (scheme, hostname, port), never on
 * string prefixes or suffixes: `https://app.test.evil.test`, `https://evilapp.test`
 * and `https://evil.test?.app.test` all *end* or *start* like a trusted origin
 * but belong to someone else. Inputs that different parsers could read
 * differently are refused outright rather than normalized: credentials
 * (`https://app.test@evil.test` is evil.test), backslashes (WHATWG URL reads
 * `\` as `/` in http(s) URLs, other parsers do not), whitespace and control
 * characters (silently stripped by `new URL`), hosts written with `%` escapes or
 * non-ASCII characters (decoded and IDNA-mapped before comparison; clients send
 * the punycode form), and scheme-relative forms such as
 * `https:evil.test`, which `new URL` reads as absolute but a browser resolves
 * relative to the current page.
 *
 * Pattern syntax:
 * - exact origins: `https://app.test`, `http://localhost:3000`;
 * - wildcards: `https://*.app.test`, `*.app.test` (http or https),
 *   `https://*.app.test:8443`. The `*` stands for one or more whole DNS labels
 *   (`a.app.test`, `a.b.app.test`), never for the bare suffix `app.test` (list
 *   it separately if it is trusted) and never for part of a label.
 * Wildcards do not consult the public suffix list: `*.co.uk` trusts all of it.
 */

type Scheme = 'http:' | 'https:'

interface OriginPattern {
  readonly schemes: readonly Scheme[]
  readonly port: string
  /** Exact hostname, or for wildcards the suffix after `*.`. */
  readonly host: string
  readonly wildcard: boolean
}

/** One DNS label: LDH, 1-63 characters, no leading or trailing hyphen (RFC 1123). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const WILDCARD = /^(?:(https?):\/\/)?\*\.([^/:?#@]+)(?::(\d{1,5}))?\/?$/
/**
 * Whitespace (ASCII and Unicode), C0 controls, DEL and backslash: never in a URL
 * we accept, absolute or relative (see the module comment and `redirects.ts`).
 */
export const UNSAFE_URL_CHARACTERS = /[\s\u0000-\u001f\u007f\\]/
const ABSOLUTE_HTTP = /^https?:\/\//i
/**
 * The authority as written: ASCII host characters, IPv6 brackets and a port.
 * Refuses '@' (credentials), '%' (percent-encoded hosts) and non-ASCII (IDNA
 * mapping turns 'ａ.app．test' into 'a.app.test'): a legitimate client sends
 * the ASCII (punycode) form, which is also what browsers put in `Origin`.
 */
const AUTHORITY = /^[a-z0-9._\-[\]:]+$/i
const DEFAULT_PORT: Record<Scheme, string> = { 'http:': '80', 'https:': '443' }

/**
 * Parses an absolute http(s) URL, or returns null for anything ambiguous:
 * unparseable input, another scheme, credentials, whitespace, control
 * characters, backslashes, a missing `//` after the scheme, or a host written
 * with percent-escapes or non-ASCII characters.
 *
 * @example
 * parseHttpUrl('https://app.test/cb?x=1')?.origin // 'https://app.test'
 * parseHttpUrl('https://app.test@evil.test')      // null
 */
export function parseHttpUrl(text: string): URL | null {
  if (UNSAFE_URL_CHARACTERS.test(text) || !ABSOLUTE_HTTP.test(text)) return null
  const authority = text.slice(text.indexOf('//') + 2).split(/[/?#]/, 1)[0] ?? ''
  if (!AUTHORITY.test(authority)) return null
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  if (url.username !== '' || url.password !== '' || url.hostname === '') return null
  return url
}

/**
 * The origin (`scheme://host[:port]`) of an absolute http(s) URL, or null.
 *
 * @example
 * getOrigin('https://App.Test:443/path') // 'https://app.test'
 * getOrigin('javascript:alert(1)')       // null
 */
export function getOrigin(url: string): string | null {
  return parseHttpUrl(url)?.origin ?? null
}

/** The scheme of a URL that {@link parseHttpUrl} accepted. */
function schemeOf(url: URL): Scheme {
  return url.protocol === 'https:' ? 'https:' : 'http:'
}

function labelsValid(host: string): boolean {
  return host.split('.').every((label) => LABEL.test(label))
}

function parsePattern(raw: string): OriginPattern {
  const text = raw.trim().toLowerCase()
  const invalid = () =>
    new TypeError(
      `Invalid trusted origin ${JSON.stringify(raw)}: use an origin such as "https://app.test" or a wildcard such as "https://*.app.test"`,
    )
  if (text.includes('*')) {
    const match = WILDCARD.exec(text)
    const suffix = match?.[2]
    if (!match || suffix === undefined || !labelsValid(suffix)) throw invalid()
    const scheme = match[1]
    const schemes: readonly Scheme[] =
      scheme === undefined ? ['http:', 'https:'] : [scheme === 'https' ? 'https:' : 'http:']
    const port = match[3] === undefined ? '' : String(Number(match[3]))
    if (Number(port) > 65_535) throw invalid()
    return { schemes, port, host: suffix, wildcard: true }
  }
  const url = parseHttpUrl(text)
  if (!url || url.pathname !== '/' || url.search !== '' || url.hash !== '' || text.endsWith('?') || text.endsWith('#')) {
    throw invalid()
  }
  return { schemes: [schemeOf(url)], port: url.port, host: url.hostname, wildcard: false }
}

function matches(pattern: OriginPattern, url: URL): boolean {
  const scheme = schemeOf(url)
  if (!pattern.schemes.includes(scheme)) return false
  // A wildcard without a port given for both schemes means each scheme's default port.
  const port = pattern.port === DEFAULT_PORT[scheme] ? '' : pattern.port
  if (url.port !== port) return false
  if (!pattern.wildcard) return url.hostname === pattern.host
  const suffix = `.${pattern.host}`
  if (!url.hostname.endsWith(suffix)) return false
  const subdomain = url.hostname.slice(0, -suffix.length)
  return subdomain !== '' && labelsValid(subdomain)
}

/**
 * Compiles trusted-origin patterns into a predicate over candidate origins (an
 * `Origin` header, or the origin of a redirect target). Invalid patterns throw
 * at start-up, where a typo is cheap to find. Only the scheme, host and port of
 * a candidate are compared; a path, if any, is ignored.
 *
 * @example
 * const isTrusted = createOriginMatcher(['https://app.test', 'https://*.app.test'])
 * isTrusted('https://admin.app.test')   // true
 * isTrusted('https://app.test.evil.test') // false
 */
export function createOriginMatcher(patterns: readonly string[]): (candidate: string) => boolean {
  const compiled = patterns.map(parsePattern)
  return (candidate) => {
    const url = parseHttpUrl(candidate)
    if (url === null) return false
    return compiled.some((pattern) => matches(pattern, url))
  }
}
