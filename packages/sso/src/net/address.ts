/**
 * @module
 * Which IP addresses the SSO fetch may connect to (docs/sso.md#urls-the-server-fetches).
 * An organization admin types the discovery, JWKS, token, userinfo and SAML metadata
 * URLs; without this check they could point the server at itself (127.0.0.1), at the
 * internal network (10/8, fc00::/7), or at the cloud metadata service (169.254.169.254,
 * which hands out the instance's credentials): server-side request forgery.
 *
 * The rule is an allow-list in spirit: IPv6 outside global unicast (2000::/3) is refused
 * whole, and the IPv4 and IPv6 special-purpose ranges of RFC 6890 and its updates that a
 * public IdP never lives in are refused by name. Addresses that carry an IPv4 address
 * inside an IPv6 one (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) are
 * judged by the IPv4 address inside, since that is where the packets end up.
 */
import { isIP } from 'node:net'

type Range4 = readonly [base: string, bits: number, name: string]
type Range6 = readonly [base: string, bits: number, name: string]

/** Most specific first: the first match names the range in the error message. */
const REFUSED_V4: readonly Range4[] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
]

/** Within global unicast 2000::/3; everything outside it is refused before this list. */
const REFUSED_V6_GLOBAL: readonly Range6[] = [
  ['2001::', 32, 'Teredo'],
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
]

/** Outside 2000::/3, named for the message; anything else there is 'reserved'. */
const NAMED_V6_OTHER: readonly Range6[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible (deprecated)'],
  ['64:ff9b:1::', 48, 'local-use NAT64'],
  ['100::', 64, 'discard-only'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
]

function v4ToNumber(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0)
}

function numberToV4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.')
}

/** An IPv6 address (validated by `isIP`) as a 128-bit integer; a dotted IPv4 tail is allowed. */
function v6ToBigInt(address: string): bigint {
  let text = address
  const lastColon = text.lastIndexOf(':')
  const tail = text.slice(lastColon + 1)
  if (tail.includes('.')) {
    const v4 = v4ToNumber(tail)
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const [head = '', rest] = text.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = rest === undefined || rest === '' ? [] : rest.split(':')
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return groups.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)), 0n)
}

function inV4(value: number, [base, bits]: Range4): boolean {
  const shift = 32 - bits
  return Math.floor(value / 2 ** shift) === Math.floor(v4ToNumber(base) / 2 ** shift)
}

function inV6(value: bigint, [base, bits]: Range6): boolean {
  const shift = BigInt(128 - bits)
  return value >> shift === v6ToBigInt(base) >> shift
}

function refusedV4(address: string): string | null {
  const value = v4ToNumber(address)
  return REFUSED_V4.find((range) => inV4(value, range))?.[2] ?? null
}

function embedded(value: bigint, shift: bigint, carrier: string): string | null {
  const v4 = numberToV4(Number((value >> shift) & 0xffffffffn))
  const range = refusedV4(v4)
  return range === null ? null : `${carrier} ${v4}, ${range}`
}

function refusedV6(address: string): string | null {
  const value = v6ToBigInt(address)
  if (inV6(value, ['::ffff:0:0', 96, ''])) return embedded(value, 0n, 'IPv4-mapped')
  if (inV6(value, ['64:ff9b::', 96, ''])) return embedded(value, 0n, 'NAT64 of')
  if (!inV6(value, ['2000::', 3, ''])) {
    return NAMED_V6_OTHER.find((range) => inV6(value, range))?.[2] ?? 'reserved (outside global unicast)'
  }
  if (inV6(value, ['2002::', 16, ''])) return embedded(value, 80n, '6to4 of')
  return REFUSED_V6_GLOBAL.find((range) => inV6(value, range))?.[2] ?? null
}

/**
 * The name of the special-purpose range `address` falls in, or `null` for an address the
 * SSO fetch may connect to. Anything that is not an IP address (or carries an IPv6 zone,
 * which only link-local addresses use) is refused as 'not an IP address'.
 *
 * @example
 * refusedAddressRange('169.254.169.254') // 'link-local (cloud metadata)'
 * refusedAddressRange('::ffff:7f00:1')   // 'IPv4-mapped 127.0.0.1, loopback'
 * refusedAddressRange('93.184.215.14')   // null
 */
export function refusedAddressRange(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  if (bare.includes('%')) return 'scoped (link-local)'
  switch (isIP(bare)) {
    case 4:
      return refusedV4(bare)
    case 6:
      return refusedV6(bare)
    default:
      return 'not an IP address'
  }
}

/**
 * True when the SSO fetch may connect to `address` (see `refusedAddressRange`).
 *
 * @example
 * isPublicAddress('10.0.0.1') // false
 * isPublicAddress('2606:4700:4700::1111') // true
 */
export function isPublicAddress(address: string): boolean {
  return refusedAddressRange(address) === null
}
