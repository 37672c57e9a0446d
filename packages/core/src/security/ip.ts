/**
 * @module
 * Client IP addresses: strict parsing, the rate-limit key, and reading the
 * address from proxy headers (docs/security.md#client-ip-and-rate-limit-keys-securityipts:
 * an address from a header counts only if it is a valid IPv4 or IPv6 address;
 * x-forwarded-for by default, can be disabled).
 *
 * Which x-forwarded-for entry: each proxy *appends* the address it received the
 * connection from, so the list reads `client-supplied..., proxyN-saw, ..., proxy1-saw`.
 * Everything left of what our own proxies appended is whatever the client chose
 * to send; taking the leftmost entry (a common mistake) lets anyone pick their
 * IP, dodging rate limits and poisoning audit logs. We take the entry appended by
 * the outermost trusted proxy: the rightmost one with one proxy, the Nth from the
 * right with `trustedProxyCount: N`. If that entry is missing or not a valid
 * address we return null rather than fall back to another entry or header, since
 * every fallback is a value the client could have written. (The rate limiter
 * still counts such a request, under the connection's address: endpoint/handler.ts.)
 *
 * Other configured headers (`x-real-ip`, `cf-connecting-ip`, ...) are set whole
 * by the proxy, so they must hold exactly one address. The first configured
 * header that is present decides.
 *
 * Whose header: the headers are believed only when something other than the
 * client wrote their deciding entry (docs/security.md#client-ip-and-rate-limit-keys-securityipts).
 * Either the server glue knows the connection (`toNodeHandler`,
 * `auth.handler(request, { ip })`) and appends it as the last hop, or the
 * operator said a proxy writes them (`trustedProxyCount` or `ipAddressHeaders`
 * set). A bare `auth.handler(request)` on Bun, Deno or Workers has neither:
 * there the header is whatever the client sent, and believing it gave every
 * request a fresh rate-limit budget of its own choosing.
 *
 * Rate limits key IPv6 clients by their /64: one subscriber line usually gets a
 * whole /64 and can rotate through 2^64 addresses at will.
 */

export interface ParsedIp {
  version: 4 | 6
  /** IPv4 dotted quad, or IPv6 as eight lowercase four-digit groups. */
  normalized: string
}

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`)
const HEX_GROUP = /^[0-9a-f]{1,4}$/i

function parseIPv4Words(text: string): [number, number] | null {
  if (!IPV4.test(text)) return null
  const [a = 0, b = 0, c = 0, d = 0] = text.split('.').map(Number)
  return [(a << 8) | b, (c << 8) | d]
}

/** Groups of one side of '::'; a dotted IPv4 is allowed only as the very last piece. */
function parseGroups(text: string, allowIPv4Last: boolean): number[] | null {
  if (text === '') return []
  const parts = text.split(':')
  const words: number[] = []
  for (const [index, part] of parts.entries()) {
    if (allowIPv4Last && index === parts.length - 1 && part.includes('.')) {
      const pair = parseIPv4Words(part)
      if (pair === null) return null
      words.push(...pair)
    } else if (HEX_GROUP.test(part)) {
      words.push(Number.parseInt(part, 16))
    } else {
      return null
    }
  }
  return words
}

/** RFC 4291 §2.2 text forms, without zone ids (RFC 6874) or brackets. */
function parseIPv6Words(text: string): number[] | null {
  if (text.length > 45 || !/^[0-9a-f:.]+$/i.test(text)) return null
  const halves = text.split('::')
  if (halves.length > 2) return null
  const [head = '', tail] = halves
  if (tail === undefined) {
    const words = parseGroups(head, true)
    return words !== null && words.length === 8 ? words : null
  }
  const left = parseGroups(head, false)
  const right = parseGroups(tail, true)
  // '::' stands for at least one zero group.
  if (left === null || right === null || left.length + right.length > 7) return null
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right]
}

function mappedIPv4(words: readonly number[]): string | null {
  const isMapped = words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff
  if (!isMapped) return null
  const [high = 0, low = 0] = words.slice(6)
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
}

/**
 * Parses an IPv4 (four decimal octets 0-255, no leading zeros) or IPv6 address.
 * Anything else, including zone ids (`fe80::1%eth0`), brackets and ports, is null.
 *
 * @example
 * parseIp('2001:DB8::1') // { version: 6, normalized: '2001:0db8:0000:0000:0000:0000:0000:0001' }
 * parseIp('010.0.0.1')   // null (octal ambiguity)
 */
export function parseIp(text: string): ParsedIp | null {
  if (IPV4.test(text)) return { version: 4, normalized: text }
  const words = parseIPv6Words(text)
  if (words === null) return null
  return { version: 6, normalized: words.map((word) => word.toString(16).padStart(4, '0')).join(':') }
}

/**
 * The key a rate limiter counts under: an IPv4 address as is, an IPv4-mapped
 * IPv6 address as its IPv4, any other IPv6 address as its /64 prefix
 * (e.g. `2001:db8:1:2::/64`). Takes an address already validated (as returned
 * by {@link clientIpFromHeaders} or {@link parseIp}); anything else is a bug
 * in the caller and throws a TypeError.
 *
 * @example
 * rateLimitKeyForIp('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 * rateLimitKeyForIp('::ffff:192.0.2.1')     // '192.0.2.1'
 */
export function rateLimitKeyForIp(ip: string): string {
  if (IPV4.test(ip)) return ip
  const words = parseIPv6Words(ip)
  if (words === null) throw new TypeError(`Not an IP address: ${JSON.stringify(ip)}`)
  const mapped = mappedIPv4(words)
  if (mapped !== null) return mapped
  return `${words
    .slice(0, 4)
    .map((word) => word.toString(16))
    .join(':')}::/64`
}

export interface ClientIpOptions {
  /** Headers to read, in order; default `['x-forwarded-for']`. */
  headers?: readonly string[]
  /** Turn header-based detection off (no proxy in front, or the platform gives the address). */
  disabled?: boolean
  /** How many proxies of ours append to x-forwarded-for; default 1. */
  trustedProxyCount?: number
  /**
   * False when nothing but the client can have written the headers (see
   * {@link headersTrusted}): a present header then names no client. Default true.
   */
  trusted?: boolean
}

/**
 * Whether the configured headers may name the client: the server glue knows
 * the connection and appends it as the last hop (`peerKnown`), or the
 * operator opted in by saying how the headers are written
 * (`trustedProxyCount` or `ipAddressHeaders`). Without either, nothing but
 * the client can have written them.
 *
 * @example
 * headersTrusted(options.advanced?.ipAddress, incoming.peerAddress !== undefined)
 */
export function headersTrusted(
  options: { readonly ipAddressHeaders?: unknown; readonly trustedProxyCount?: unknown } | undefined,
  peerKnown: boolean,
): boolean {
  return peerKnown || options?.trustedProxyCount !== undefined || options?.ipAddressHeaders !== undefined
}

/** Proxies such as Azure's append `ip:port`; only a proxy-written entry gets here. */
function withoutPort(entry: string): string {
  // Neither form below can match without a colon or a bracket: the common bare IPv4 skips both regexes.
  if (!entry.includes(':') && !entry.includes('[')) return entry
  const bracketed = /^\[([^\]]*)\](?::[0-9]{1,5})?$/.exec(entry)
  if (bracketed) return bracketed[1] ?? ''
  const ipv4WithPort = /^([0-9.]+):[0-9]{1,5}$/.exec(entry)
  return ipv4WithPort ? (ipv4WithPort[1] ?? '') : entry
}

/**
 * What the configured headers say about the client: `found` with the address
 * as normalized by {@link parseIp}; `absent` when none of the headers was sent;
 * `unusable` when the deciding header was sent but the entry our proxies wrote
 * is missing (fewer entries than `trustedProxyCount`) or not a valid address;
 * `untrusted` when a header was sent but nothing vouches for it
 * (`trusted: false`); `disabled` when detection is off. The last four carry no
 * address on purpose: every other entry is one the client could have written.
 */
export type ClientIpLookup =
  | { readonly kind: 'found'; readonly ip: string }
  | { readonly kind: 'absent' | 'unusable' | 'untrusted' | 'disabled' }

/**
 * @example
 * // Behind one proxy: 'x-forwarded-for: 6.6.6.6, 203.0.113.7' (6.6.6.6 typed by the client)
 * lookupClientIp(request.headers) // { kind: 'found', ip: '203.0.113.7' }
 * // 'x-forwarded-for: not-an-ip'
 * lookupClientIp(request.headers) // { kind: 'unusable' }
 */
export function lookupClientIp(headers: Headers, options: ClientIpOptions = {}): ClientIpLookup {
  if (options.disabled) return { kind: 'disabled' }
  const count = options.trustedProxyCount ?? 1
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`trustedProxyCount must be a positive integer, got ${count}`)
  }
  for (const name of options.headers ?? ['x-forwarded-for']) {
    const value = headers.get(name)
    if (value === null) continue
    if (options.trusted === false) return { kind: 'untrusted' }
    const chosen = pickEntry(name, value, count)
    const ip = chosen === undefined ? null : (parseIp(withoutPort(chosen))?.normalized ?? null)
    return ip === null ? { kind: 'unusable' } : { kind: 'found', ip }
  }
  return { kind: 'absent' }
}

/**
 * The client's address as normalized by {@link parseIp}, or null when detection
 * is disabled, no configured header is present, or the chosen entry is invalid
 * ({@link lookupClientIp} tells these apart).
 *
 * @example
 * // Behind one proxy: 'x-forwarded-for: 6.6.6.6, 203.0.113.7' (6.6.6.6 typed by the client)
 * clientIpFromHeaders(request.headers) // '203.0.113.7'
 * clientIpFromHeaders(request.headers, { headers: ['cf-connecting-ip'] })
 */
export function clientIpFromHeaders(headers: Headers, options: ClientIpOptions = {}): string | null {
  const lookup = lookupClientIp(headers, options)
  return lookup.kind === 'found' ? lookup.ip : null
}

function pickEntry(name: string, value: string, trustedProxyCount: number): string | undefined {
  const entries = value.split(',').map((entry) => entry.trim())
  if (name.toLowerCase() === 'x-forwarded-for') return entries[entries.length - trustedProxyCount]
  // A single-valued header holding a list was not written by our proxy alone.
  return entries.length === 1 ? entries[0] : undefined
}
