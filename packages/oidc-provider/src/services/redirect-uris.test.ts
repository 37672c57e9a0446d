import { describe, expect, it } from 'vitest'
import { checkMetadataURI, checkRedirectURI, isRegistered, withParams } from './redirect-uris.js'

describe('checkRedirectURI', () => {
  it.each([
    'https://rp.example.com/callback',
    'https://rp.example.com:8443/cb?tenant=a',
    'http://127.0.0.1:8080/cb',
    'http://[::1]/cb',
  ])('accepts %s', (uri) => {
    expect(checkRedirectURI(uri)).toEqual({ ok: true })
  })

  it.each([
    ['a relative path', '/callback'],
    ['http off loopback', 'http://rp.example.com/cb'],
    ['http on a look-alike host', 'http://localhost.evil.example/cb'],
    ['a fragment', 'https://rp.example.com/cb#frag'],
    ['an empty fragment', 'https://rp.example.com/cb#'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a custom scheme', 'com.example.app:/cb'],
    ['a comma', 'https://rp.example.com/cb?a=1,2'],
    ['credentials', 'https://user:pass@rp.example.com/cb'],
    ['localhost for a confidential client (RFC 8252 §8.3)', 'http://localhost:3000/cb'],
    ['a tab the parser would drop', 'https://rp.example.com/a\tb'],
    ['a form the parser rewrites', 'https://RP.example.com/cb'],
  ])('refuses %s', (_, uri) => {
    expect(checkRedirectURI(uri).ok).toBe(false)
  })

  it('a native public client may use a reverse-domain private-use scheme (RFC 8252 §7.1) and localhost; others may not', () => {
    const native = { type: 'native', isPublic: true } as const
    const spa = { type: 'public', isPublic: true } as const
    expect(checkRedirectURI('com.example.app:/oauth2redirect', native)).toEqual({ ok: true })
    expect(checkRedirectURI('com.example.app:/oauth2redirect', spa).ok).toBe(false)
    expect(checkRedirectURI('myapp:/cb', native).ok).toBe(false)
    expect(checkRedirectURI('javascript:alert(1)', native).ok).toBe(false)
    expect(checkRedirectURI('http://localhost:3000/cb', spa)).toEqual({ ok: true })
  })
})

describe('checkMetadataURI', () => {
  it('answers https URLs as parsed; refuses other schemes, whitespace and credentials', () => {
    expect(checkMetadataURI('https://RP.example.com')).toEqual({ ok: true, href: 'https://rp.example.com/' })
    for (const uri of ['javascript:alert(1)', 'data:text/html,x', 'http://rp.example.com/', 'https://rp.example.com/a b', 'https://u:p@rp.example.com/', '/relative']) {
      expect(checkMetadataURI(uri).ok).toBe(false)
    }
  })
})

describe('isRegistered', () => {
  it('matches exactly only', () => {
    const registered = ['https://rp.example.com/cb']
    expect(isRegistered(registered, 'https://rp.example.com/cb')).toBe(true)
    for (const near of ['https://rp.example.com/cb/', 'https://RP.example.com/cb', 'https://rp.example.com:443/cb', 'https://rp.example.com/cb?x', 'https://rp.example.com/c']) {
      expect(isRegistered(registered, near)).toBe(false)
    }
  })

  it('a loopback IP URI of a native public client matches on any port (RFC 8252 §7.3); of any other client, exactly', () => {
    const native = { type: 'native', isPublic: true } as const
    expect(isRegistered(['http://127.0.0.1/cb'], 'http://127.0.0.1:51004/cb', native)).toBe(true)
    expect(isRegistered(['http://[::1]:80/cb'], 'http://[::1]:1/cb', native)).toBe(true)
    expect(isRegistered(['http://127.0.0.1/cb'], 'http://127.0.0.1:51004/cb', { type: 'web', isPublic: false })).toBe(false)
    expect(isRegistered(['http://127.0.0.1/cb'], 'http://127.0.0.1:51004/cb')).toBe(false)
    expect(isRegistered(['http://127.0.0.1/cb'], 'http://127.0.0.1:51004/other', native)).toBe(false)
    expect(isRegistered(['https://rp.example.com/cb'], 'https://rp.example.com:444/cb', native)).toBe(false)
  })
})

describe('withParams', () => {
  it('keeps the existing query and leaves undefined values out', () => {
    expect(withParams('https://rp.example.com/cb?tenant=a', { code: 'abc', state: undefined, iss: 'https://id.example.com/api/auth' })).toBe(
      'https://rp.example.com/cb?tenant=a&code=abc&iss=https%3A%2F%2Fid.example.com%2Fapi%2Fauth',
    )
  })

  it('keeps the registered query byte for byte, and encodes values so they decode exactly', () => {
    // URLSearchParams would re-serialize `a%20b` as `a+b` and `%7E` as `~`: the registered string must survive as is.
    const target = withParams('https://rp.example.com/cb?x=a%20b&y=%7E', { code: 'c', state: 'a b&c=d/é+%' })
    expect(target).toBe('https://rp.example.com/cb?x=a%20b&y=%7E&code=c&state=a+b%26c%3Dd%2F%C3%A9%2B%25')
    expect(new URL(target).searchParams.get('state')).toBe('a b&c=d/é+%')
    expect(withParams('https://rp.example.com/cb?', { code: 'c' })).toBe('https://rp.example.com/cb?code=c')
    expect(withParams('https://rp.example.com/cb', {})).toBe('https://rp.example.com/cb')
  })
})
