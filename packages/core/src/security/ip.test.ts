import { BlockList, isIP } from 'node:net'
import { describe, expect, it } from 'vitest'
import { clientIpFromHeaders, headersTrusted, lookupClientIp, parseIp, rateLimitKeyForIp } from './ip.js'

describe('parseIp: IPv4', () => {
  it.each(['0.0.0.0', '1.2.3.4', '127.0.0.1', '192.168.1.255', '255.255.255.255', '10.0.0.10', '100.200.250.199'])(
    '%s',
    (text) => {
      expect(parseIp(text)).toEqual({ version: 4, normalized: text })
    },
  )

  it.each([
    ['leading zero', '01.2.3.4'],
    ['octal-looking', '010.0.0.1'],
    ['zero padded', '1.2.3.004'],
    ['octet 256', '256.1.1.1'],
    ['octet 300', '1.2.3.300'],
    ['three parts', '1.2.3'],
    ['five parts', '1.2.3.4.5'],
    ['single number', '16909060'],
    ['hex', '0x7f.0.0.1'],
    ['trailing dot', '1.2.3.4.'],
    ['leading dot', '.1.2.3.4'],
    ['empty part', '1..2.3'],
    ['port', '1.2.3.4:80'],
    ['leading space', ' 1.2.3.4'],
    ['trailing space', '1.2.3.4 '],
    ['trailing newline', '1.2.3.4\n'],
    ['sign', '+1.2.3.4'],
    ['negative', '-1.2.3.4'],
    ['fullwidth digits', '１.2.3.4'],
    ['arabic-indic digit', '\u0661.2.3.4'],
    ['CIDR', '1.2.3.4/32'],
    ['letters', 'a.b.c.d'],
    ['empty', ''],
    ['hostname', 'localhost'],
    ['script', '<script>'],
  ])('rejects %s: %j', (_name, text) => {
    expect(parseIp(text)).toBeNull()
  })
})

describe('parseIp: IPv6', () => {
  it.each([
    ['::', '0000:0000:0000:0000:0000:0000:0000:0000'],
    ['::1', '0000:0000:0000:0000:0000:0000:0000:0001'],
    ['1::', '0001:0000:0000:0000:0000:0000:0000:0000'],
    ['2001:db8::1', '2001:0db8:0000:0000:0000:0000:0000:0001'],
    ['2001:DB8::ABCD', '2001:0db8:0000:0000:0000:0000:0000:abcd'],
    ['2001:0db8:0000:0000:0000:ff00:0042:8329', '2001:0db8:0000:0000:0000:ff00:0042:8329'],
    ['2001:db8:0:0:0:ff00:42:8329', '2001:0db8:0000:0000:0000:ff00:0042:8329'],
    ['1:2:3:4:5:6:7:8', '0001:0002:0003:0004:0005:0006:0007:0008'],
    ['1:2:3:4:5:6:7::', '0001:0002:0003:0004:0005:0006:0007:0000'],
    ['::2:3:4:5:6:7:8', '0000:0002:0003:0004:0005:0006:0007:0008'],
    ['1:2:3::6:7:8', '0001:0002:0003:0000:0000:0006:0007:0008'],
    ['fe80::1', 'fe80:0000:0000:0000:0000:0000:0000:0001'],
    ['::ffff:192.0.2.1', '0000:0000:0000:0000:0000:ffff:c000:0201'],
    ['::ffff:c000:201', '0000:0000:0000:0000:0000:ffff:c000:0201'],
    ['64:ff9b::192.0.2.33', '0064:ff9b:0000:0000:0000:0000:c000:0221'],
    ['1:2:3:4:5:6:1.2.3.4', '0001:0002:0003:0004:0005:0006:0102:0304'],
    ['::1.2.3.4', '0000:0000:0000:0000:0000:0000:0102:0304'],
  ])('%s', (text, normalized) => {
    expect(parseIp(text)).toEqual({ version: 6, normalized })
  })

  it.each([
    ['two ::', '1::2::3'],
    [':::', ':::'],
    ['leading single colon', ':1:2:3:4:5:6:7'],
    ['trailing single colon', '1:2:3:4:5:6:7:'],
    ['seven groups', '1:2:3:4:5:6:7'],
    ['nine groups', '1:2:3:4:5:6:7:8:9'],
    [':: with eight groups', '1:2:3:4::5:6:7:8'],
    ['five hex digits', '12345::1'],
    ['non-hex', '2001:db8::g'],
    ['zone id', 'fe80::1%eth0'],
    ['numeric zone id', 'fe80::1%1'],
    ['encoded zone id', 'fe80::1%25eth0'],
    ['brackets', '[::1]'],
    ['brackets and port', '[::1]:443'],
    ['IPv4 not last', '1.2.3.4::1'],
    ['IPv4 in the middle', '1:2:3:1.2.3.4:5:6'],
    ['IPv4 leading zero', '::ffff:01.2.3.4'],
    ['IPv4 octet too big', '::ffff:1.2.3.256'],
    ['IPv4 and too many groups', '1:2:3:4:5:6:7:1.2.3.4'],
    ['short IPv4', '::ffff:1.2.3'],
    ['space', '2001:db8:: 1'],
    ['trailing newline', '::1\n'],
    ['prefix length', '2001:db8::/32'],
    ['too long', `${'0'.repeat(40)}::1`],
    ['single colon', ':'],
  ])('rejects %s: %j', (_name, text) => {
    expect(parseIp(text)).toBeNull()
  })

  it('agrees with node:net and WHATWG URL on a batch of generated addresses', () => {
    const samples: string[] = []
    for (let i = 0; i < 300; i++) {
      const groups = Array.from({ length: 8 }, (_, g) => ((i * 7919 + g * 104_729) % 65_536).toString(16))
      const zeroStart = i % 8
      const zeroLength = i % 4
      for (let z = zeroStart; z < Math.min(8, zeroStart + zeroLength); z++) groups[z] = '0'
      samples.push(groups.join(':'))
      if (zeroLength > 0) {
        const compressed = [...groups.slice(0, zeroStart), '', ...groups.slice(zeroStart + zeroLength)].join(':')
        samples.push(compressed.startsWith(':') ? `:${compressed}` : compressed.endsWith(':') ? `${compressed}:` : compressed)
      }
    }
    for (const sample of samples) {
      expect(isIP(sample), sample).toBe(6)
      const parsed = parseIp(sample)
      expect(parsed?.version, sample).toBe(6)
      // Normalization is canonical: the expanded form parses to itself, and the
      // WHATWG URL parser's compressed spelling of the same address normalizes identically.
      expect(parseIp(parsed?.normalized ?? '')?.normalized).toBe(parsed?.normalized)
      const whatwg = new URL(`http://[${sample}]/`).hostname.slice(1, -1)
      expect(parseIp(whatwg)?.normalized, sample).toBe(parsed?.normalized)
    }
  })
})

describe('rateLimitKeyForIp', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::ffff:c000:0201', '192.0.2.1'],
    ['0:0:0:0:0:ffff:192.0.2.1', '192.0.2.1'],
  ])('%s -> %s', (ip, key) => {
    expect(rateLimitKeyForIp(ip)).toBe(key)
  })

  it('gives every address in one /64 the same key and neighbours different keys', () => {
    const keys = new Set(
      ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2:1234::'].map(rateLimitKeyForIp),
    )
    expect(keys).toEqual(new Set(['2001:db8:1:2::/64']))
    expect(rateLimitKeyForIp('2001:db8:1:3::1')).not.toBe(rateLimitKeyForIp('2001:db8:1:2::1'))
  })

  it('does not treat IPv4-compatible or NAT64 forms as mapped', () => {
    expect(rateLimitKeyForIp('::1.2.3.4')).toBe('0:0:0:0::/64')
    expect(rateLimitKeyForIp('::fffe:1.2.3.4')).toBe('0:0:0:0::/64')
  })

  it.each(['', 'nope', '1.2.3.4:80', '[::1]', 'fe80::1%eth0', '01.2.3.4'])('throws for the unvalidated %j', (ip) => {
    expect(() => rateLimitKeyForIp(ip)).toThrow(TypeError)
  })

  it('accepts what clientIpFromHeaders returns', () => {
    const ip = clientIpFromHeaders(new Headers({ 'x-forwarded-for': '2001:db8:1:2::99' }))
    expect(ip).not.toBeNull()
    expect(rateLimitKeyForIp(ip ?? '')).toBe('2001:db8:1:2::/64')
  })
})

describe('clientIpFromHeaders', () => {
  const xff = (value: string) => new Headers({ 'x-forwarded-for': value })

  it.each([
    ['single entry', '203.0.113.7', '203.0.113.7'],
    ['rightmost of a spoofed list', '6.6.6.6, 203.0.113.7', '203.0.113.7'],
    ['rightmost, no spaces', '6.6.6.6,7.7.7.7,203.0.113.7', '203.0.113.7'],
    ['extra whitespace', '  6.6.6.6 ,\t203.0.113.7  ', '203.0.113.7'],
    ['IPv6 normalized', '6.6.6.6, 2001:DB8::1', '2001:0db8:0000:0000:0000:0000:0000:0001'],
    ['IPv4 with port from the proxy', '6.6.6.6, 203.0.113.7:51234', '203.0.113.7'],
    ['bracketed IPv6 with port', '[2001:db8::1]:443', '2001:0db8:0000:0000:0000:0000:0000:0001'],
    ['bracketed IPv6', '[2001:db8::1]', '2001:0db8:0000:0000:0000:0000:0000:0001'],
  ])('takes the proxy-written entry: %s', (_name, value, expected) => {
    expect(clientIpFromHeaders(xff(value))).toBe(expected)
  })

  it.each([
    ['garbage rightmost, valid leftmost', '203.0.113.7, not-an-ip'],
    ['empty rightmost', '203.0.113.7, '],
    ['hostname', 'proxy.internal'],
    ['unknown keyword', 'unknown'],
    ['zone id', 'fe80::1%eth0'],
    ['leading zeros', '010.0.0.1'],
    ['empty', ''],
    ['obfuscated', '0x7f.0.0.1'],
  ])('returns null, never a fallback: %s', (_name, value) => {
    expect(clientIpFromHeaders(xff(value))).toBeNull()
  })

  it('joins repeated header lines in order, so the last line still wins', () => {
    const headers = new Headers()
    headers.append('x-forwarded-for', '6.6.6.6')
    headers.append('x-forwarded-for', '203.0.113.7')
    expect(clientIpFromHeaders(headers)).toBe('203.0.113.7')
  })

  it('counts trusted proxies from the right', () => {
    const value = '6.6.6.6, 203.0.113.7, 10.0.0.2'
    expect(clientIpFromHeaders(xff(value), { trustedProxyCount: 1 })).toBe('10.0.0.2')
    expect(clientIpFromHeaders(xff(value), { trustedProxyCount: 2 })).toBe('203.0.113.7')
    expect(clientIpFromHeaders(xff(value), { trustedProxyCount: 3 })).toBe('6.6.6.6')
    // Fewer entries than proxies: the chain is not what we were told, trust nothing.
    expect(clientIpFromHeaders(xff(value), { trustedProxyCount: 4 })).toBeNull()
  })

  it.each([0, -1, 1.5, Number.NaN])('rejects trustedProxyCount %s', (trustedProxyCount) => {
    expect(() => clientIpFromHeaders(xff('1.2.3.4'), { trustedProxyCount })).toThrow(RangeError)
  })

  it('returns null when disabled or when no header is present', () => {
    expect(clientIpFromHeaders(xff('203.0.113.7'), { disabled: true })).toBeNull()
    expect(clientIpFromHeaders(new Headers())).toBeNull()
    expect(clientIpFromHeaders(new Headers({ 'x-real-ip': '203.0.113.7' }))).toBeNull()
  })

  it('reads configured headers in order; the first present one decides', () => {
    const headers = new Headers({ 'cf-connecting-ip': '198.51.100.9', 'x-forwarded-for': '203.0.113.7' })
    expect(clientIpFromHeaders(headers, { headers: ['cf-connecting-ip', 'x-forwarded-for'] })).toBe('198.51.100.9')
    expect(clientIpFromHeaders(headers, { headers: ['x-real-ip', 'x-forwarded-for'] })).toBe('203.0.113.7')
    const bad = new Headers({ 'cf-connecting-ip': 'garbage', 'x-forwarded-for': '203.0.113.7' })
    expect(clientIpFromHeaders(bad, { headers: ['cf-connecting-ip', 'x-forwarded-for'] })).toBeNull()
  })

  it('requires single-valued headers to hold exactly one address', () => {
    const headers = new Headers({ 'x-real-ip': '6.6.6.6, 203.0.113.7' })
    expect(clientIpFromHeaders(headers, { headers: ['x-real-ip'] })).toBeNull()
    expect(clientIpFromHeaders(new Headers({ 'X-Real-IP': ' 203.0.113.7 ' }), { headers: ['X-Real-IP'] })).toBe('203.0.113.7')
  })

  it('treats the header name case-insensitively', () => {
    expect(clientIpFromHeaders(xff('6.6.6.6, 203.0.113.7'), { headers: ['X-Forwarded-For'] })).toBe('203.0.113.7')
  })
})

describe('lookupClientIp', () => {
  const xff = (value: string) => new Headers({ 'x-forwarded-for': value })

  it('tells a found address, a missing header, an unusable entry and disabled detection apart', () => {
    expect(lookupClientIp(xff('6.6.6.6, 203.0.113.7'))).toEqual({ kind: 'found', ip: '203.0.113.7' })
    expect(lookupClientIp(new Headers())).toEqual({ kind: 'absent' })
    expect(lookupClientIp(xff('not-an-ip'))).toEqual({ kind: 'unusable' })
    expect(lookupClientIp(xff(''))).toEqual({ kind: 'unusable' })
    expect(lookupClientIp(xff('203.0.113.7'), { trustedProxyCount: 2 })).toEqual({ kind: 'unusable' })
    expect(lookupClientIp(xff('203.0.113.7'), { disabled: true })).toEqual({ kind: 'disabled' })
    // The first configured header that is present decides, even when unusable.
    const headers = new Headers({ 'cf-connecting-ip': 'garbage', 'x-forwarded-for': '203.0.113.7' })
    expect(lookupClientIp(headers, { headers: ['cf-connecting-ip', 'x-forwarded-for'] })).toEqual({ kind: 'unusable' })
  })

  it('untrusted headers name no client: a present one is `untrusted`, none is still `absent`', () => {
    expect(lookupClientIp(xff('203.0.113.7'), { trusted: false })).toEqual({ kind: 'untrusted' })
    expect(lookupClientIp(new Headers(), { trusted: false })).toEqual({ kind: 'absent' })
    expect(lookupClientIp(xff('203.0.113.7'), { trusted: false, disabled: true })).toEqual({ kind: 'disabled' })
    expect(clientIpFromHeaders(xff('203.0.113.7'), { trusted: false })).toBeNull()
  })
})

describe('headersTrusted', () => {
  it('believes the headers when the connection is known or the operator said how they are written', () => {
    expect(headersTrusted(undefined, false)).toBe(false)
    expect(headersTrusted({}, false)).toBe(false)
    expect(headersTrusted(undefined, true)).toBe(true)
    expect(headersTrusted({ trustedProxyCount: 1 }, false)).toBe(true)
    expect(headersTrusted({ ipAddressHeaders: ['x-real-ip'] }, false)).toBe(true)
  })
})

describe('rate-limit keys agree with node:net', () => {
  const keyOf = (entry: string) => {
    const ip = clientIpFromHeaders(new Headers({ 'x-forwarded-for': entry }))
    if (ip === null) throw new Error(`not accepted: ${entry}`)
    return rateLimitKeyForIp(ip)
  }

  it.each([
    [
      '2001:db8:aa:1::1',
      ['2001:DB8:AA:1::1', '2001:0db8:00aa:0001:0000:0000:0000:0001', '2001:db8:aa:1:0:0:0:1', '2001:db8:aa:1::0:1', '2001:0DB8:AA:1::0001', '[2001:db8:aa:1::1]:443'],
    ],
    ['::1', ['0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:0000:0000:0001', '::0:1', '[::1]']],
    ['198.51.100.7', ['::ffff:198.51.100.7', '::FFFF:198.51.100.7', '::ffff:c633:6407', '0:0:0:0:0:FFFF:C633:6407', '0000:0000:0000:0000:0000:ffff:198.51.100.7', '198.51.100.7:8080']],
  ])('every spelling of %s is one key', (canonical, spellings) => {
    const family = isIP(canonical) === 4 ? 'ipv4' : 'ipv6'
    const same = new BlockList()
    same.addAddress(canonical, family)
    for (const spelling of spellings) {
      const bare = spelling.replace(/^\[(.*)\](:\d+)?$/, '$1').replace(/^([\d.]+):\d+$/, '$1')
      // node:net agrees these are the same address; the limiter must too.
      expect(same.check(bare, isIP(bare) === 4 ? 'ipv4' : 'ipv6'), spelling).toBe(true)
      expect(keyOf(spelling), spelling).toBe(keyOf(canonical))
    }
  })

  it('two addresses share a key exactly when node:net puts them in one /64', () => {
    const addresses = [
      '2001:db8:aa:1::1',
      '2001:db8:aa:1:ffff:ffff:ffff:ffff',
      '2001:db8:aa:1:8000::',
      '2001:db8:aa:2::1',
      '2001:db8:ab:1::1',
      '2001:db9:aa:1::1',
      '2001:db8:aa:1:0:0:0:0',
      '2001:db8:aa:0:ffff:ffff:ffff:ffff',
      'fe80::1',
      'fe80::abcd:1',
    ]
    for (const a of addresses) {
      const subnet = new BlockList()
      subnet.addSubnet(a, 64, 'ipv6')
      for (const b of addresses) {
        expect(keyOf(a) === keyOf(b), `${a} vs ${b}`).toBe(subnet.check(b, 'ipv6'))
      }
    }
  })
})
