import { describe, expect, it } from 'vitest'
import { MAX_COOKIE_AGE_SECONDS, parseCookieHeader, serializeCookie } from './cookie-header.js'

describe('parseCookieHeader', () => {
  it('returns an empty map for null and empty headers', () => {
    expect(parseCookieHeader(null).size).toBe(0)
    expect(parseCookieHeader('').size).toBe(0)
    expect(parseCookieHeader(' ; ;; ').size).toBe(0)
  })

  it.each([
    ['a=1; b=2', [['a', '1'], ['b', '2']]],
    ['a=1;b=2', [['a', '1'], ['b', '2']]],
    ['  a = 1 ;\tb=2  ', [['a', '1'], ['b', '2']]],
    ['token=abc.def==', [['token', 'abc.def==']]],
    ['data=eyJ9=.sig=x', [['data', 'eyJ9=.sig=x']]],
    ['a=1; a=2; a=3', [['a', '1']]],
    ['a=; b=2', [['a', ''], ['b', '2']]],
    ['=orphan; b=2', [['b', '2']]],
    ['flag; b=2', [['b', '2']]],
    ['q="quoted value"', [['q', 'quoted value']]],
    ['q="', [['q', '"']]],
    ['enc=hello%20world%3B%3D', [['enc', 'hello world;=']]],
    ['bad=%E0%A4%A', [['bad', '%E0%A4%A']]],
    ['bad=%zz; good=%41', [['bad', '%zz'], ['good', 'A']]],
    ['lone=%', [['lone', '%']]],
    ['utf=%F0%9F%94%91', [['utf', '🔑']]],
    ['__proto__=x; constructor=y', [['__proto__', 'x'], ['constructor', 'y']]],
    ['__Secure-gatehouse.session_token=abc.sig', [['__Secure-gatehouse.session_token', 'abc.sig']]],
  ] satisfies Array<[string, Array<[string, string]>]>)('%j', (header, expected) => {
    expect([...parseCookieHeader(header).entries()]).toEqual(expected)
  })

  it('never throws on hostile input', () => {
    const inputs = ['%', '=%', 'a=%ff%fe', ';'.repeat(10_000), `a=${'%'.repeat(5000)}`, 'a=\u0000\uffff', 'a===']
    for (const input of inputs) expect(() => parseCookieHeader(input)).not.toThrow()
    expect(parseCookieHeader('a===').get('a')).toBe('==')
  })

  it('does not decode names, so an encoded name cannot alias ours', () => {
    const parsed = parseCookieHeader('gatehouse%2Esession_token=evil')
    expect(parsed.has('gatehouse.session_token')).toBe(false)
  })
})

describe('serializeCookie', () => {
  it('writes name, encoded value and attributes', () => {
    const expires = new Date('2026-02-03T04:05:06Z')
    expect(
      serializeCookie('sid', 'a b;c', {
        maxAge: 3600,
        expires,
        domain: 'app.test',
        path: '/',
        httpOnly: true,
        secure: true,
        sameSite: 'strict',
        partitioned: true,
      }),
    ).toBe(
      'sid=a%20b%3Bc; Max-Age=3600; Expires=Tue, 03 Feb 2026 04:05:06 GMT; Domain=app.test; Path=/; HttpOnly; Secure; SameSite=Strict; Partitioned',
    )
    expect(serializeCookie('sid', 'v')).toBe('sid=v')
    expect(serializeCookie('sid', 'v', { sameSite: 'lax' })).toBe('sid=v; SameSite=Lax')
    expect(serializeCookie('sid', 'v', { sameSite: 'none', secure: true })).toBe('sid=v; Secure; SameSite=None')
  })

  it('round-trips any value through parseCookieHeader', () => {
    for (const value of ['plain', 'a=b=c', 'x; y', '%41', '"q"', 'üñí 🔑', ' lead', 'trail ', ',', '\\']) {
      const header = serializeCookie('n', value).split('; ')[0] ?? ''
      expect(parseCookieHeader(header).get('n')).toBe(value)
    }
  })

  it('caps Max-Age at 400 days and clamps it to a non-negative integer', () => {
    expect(MAX_COOKIE_AGE_SECONDS).toBe(34_560_000)
    expect(serializeCookie('n', 'v', { maxAge: 10 * 365 * 24 * 3600 })).toBe('n=v; Max-Age=34560000')
    expect(serializeCookie('n', 'v', { maxAge: Number.POSITIVE_INFINITY })).toBe('n=v; Max-Age=34560000')
    expect(serializeCookie('n', 'v', { maxAge: MAX_COOKIE_AGE_SECONDS - 1 })).toBe('n=v; Max-Age=34559999')
    expect(serializeCookie('n', 'v', { maxAge: 0 })).toBe('n=v; Max-Age=0')
    expect(serializeCookie('n', 'v', { maxAge: -5 })).toBe('n=v; Max-Age=0')
    expect(serializeCookie('n', 'v', { maxAge: 59.9 })).toBe('n=v; Max-Age=59')
    expect(() => serializeCookie('n', 'v', { maxAge: Number.NaN })).toThrow(TypeError)
    expect(() => serializeCookie('n', 'v', { expires: new Date(Number.NaN) })).toThrow(TypeError)
  })

  it.each([
    ['empty name', '', {}],
    ['space in name', 'a b', {}],
    ['= in name', 'a=b', {}],
    ['; in name', 'a;b', {}],
    ['newline in name', 'a\nb', {}],
    ['non-ASCII name', 'nä', {}],
    ['; in path', 'n', { path: '/; Domain=evil.test' }],
    ['newline in path', 'n', { path: '/\r\nSet-Cookie: x=y' }],
    ['; in domain', 'n', { domain: 'app.test; Secure' }],
    ['empty domain', 'n', { domain: '' }],
    ['SameSite=None without Secure', 'n', { sameSite: 'none' as const }],
    ['Partitioned without Secure', 'n', { partitioned: true }],
  ])('refuses %s', (_name, name, attributes) => {
    expect(() => serializeCookie(name, 'v', attributes)).toThrow(TypeError)
  })
})
