import { describe, expect, it } from 'vitest'
import { createOriginMatcher, getOrigin, parseHttpUrl } from './origins.js'

const isTrusted = createOriginMatcher([
  'https://app.test',
  'http://localhost:3000',
  'https://*.app.test',
  '*.both.test',
  'https://*.ports.test:8443',
  'http://[::1]:4000',
  'https://xn--bcher-kva.test',
])

describe('createOriginMatcher: trusted', () => {
  it.each([
    'https://app.test',
    'https://app.test/',
    'https://app.test/some/path?q=1#h',
    'https://app.test:443',
    'HTTPS://APP.TEST',
    'https://App.Test',
    'http://localhost:3000',
    'http://LOCALHOST:3000/cb',
    'https://a.app.test',
    'https://deep.er.app.test',
    'https://A.APP.TEST',
    'https://xn--80ak6aa92e.app.test',
    'https://a-b.app.test',
    'https://1.app.test',
    'https://x.both.test',
    'http://x.both.test',
    'https://x.ports.test:8443',
    'http://[::1]:4000',
    'https://xn--bcher-kva.test',
  ])('%s', (candidate) => {
    expect(isTrusted(candidate)).toBe(true)
  })
})

describe('createOriginMatcher: not trusted', () => {
  it.each([
    // Query, fragment and path tricks: the host is evil.test.
    ['query', 'https://evil.test?.app.test'],
    ['fragment', 'https://evil.test#.app.test'],
    ['path', 'https://evil.test/.app.test'],
    ['path to trusted', 'https://evil.test/https://app.test'],
    // Suffix and prefix tricks.
    ['trusted as prefix', 'https://app.test.evil.test'],
    ['suffix without dot', 'https://evilapp.test'],
    ['suffix without dot (wildcard)', 'https://evil-app.test'],
    ['bare wildcard suffix', 'https://both.test'],
    ['bare wildcard suffix (https)', 'https://ports.test:8443'],
    // Credentials.
    ['credentials host', 'https://app.test@evil.test'],
    ['credentials user and password', 'https://app.test:443@evil.test'],
    ['credentials on trusted host', 'https://user:pass@app.test'],
    ['credentials user only', 'https://user@app.test'],
    // Scheme and port mismatches.
    ['http for https origin', 'http://app.test'],
    ['https for http origin', 'https://localhost:3000'],
    ['other port', 'https://app.test:8443'],
    ['missing port', 'http://localhost'],
    ['wildcard wrong port', 'https://x.ports.test'],
    ['wildcard other port', 'https://x.app.test:444'],
    ['wildcard http on https pattern', 'http://a.app.test'],
    ['ws scheme', 'wss://app.test'],
    ['ftp scheme', 'ftp://app.test'],
    ['javascript', 'javascript:alert(1)//https://app.test'],
    ['data', 'data:text/html,https://app.test'],
    ['blob with trusted inner origin', 'blob:https://app.test/uuid'],
    ['file', 'file:///etc/passwd'],
    // Trailing dots and empty labels.
    ['trailing dot', 'https://app.test.'],
    ['trailing dot (wildcard)', 'https://a.app.test.'],
    ['leading dot', 'https://.app.test'],
    ['empty label', 'https://a..app.test'],
    ['leading hyphen label', 'https://-a.app.test'],
    ['underscore label', 'https://a_b.app.test'],
    // Parser differentials.
    ['backslash host end', 'https://evil.test\\.app.test'],
    ['backslash after scheme', 'https:\\\\app.test'],
    ['backslash in path', 'https://app.test\\'],
    ['no slashes', 'https:app.test'],
    ['one slash', 'https:/app.test'],
    ['three slashes', 'https:///app.test'],
    ['leading space', ' https://app.test'],
    ['trailing space', 'https://app.test '],
    ['trailing newline', 'https://app.test\n'],
    ['embedded tab', 'https://app.te\tst'],
    ['embedded newline in wildcard', 'https://a.app\n.test'],
    ['NUL', 'https://app.test\u0000'],
    ['zero-width space', 'https://a.app.test\u200b'],
    ['no-break space', '\u00a0https://app.test'],
    ['fullwidth letter', 'https://ａ.app.test'],
    ['ideographic full stop', 'https://a.app。test'],
    ['fullwidth full stop', 'https://a.app．test'],
    ['unicode host', 'https://bücher.test'],
    ['cyrillic lookalike', 'https://аpp.test'],
    ['percent-encoded dot', 'https://a%2eapp.test'],
    ['percent-encoded host', 'https://%61pp.test'],
    // Not URLs at all.
    ['empty', ''],
    ['null origin', 'null'],
    ['host only', 'app.test'],
    ['wildcard itself', 'https://*.app.test'],
    ['protocol-relative', '//app.test'],
    ['relative path', '/app.test'],
    ['unterminated IPv6', 'http://[::1:4000'],
  ])('%s: %j', (_name, candidate) => {
    expect(isTrusted(candidate)).toBe(false)
  })
})

describe('createOriginMatcher: patterns', () => {
  it('trusts nothing when empty', () => {
    expect(createOriginMatcher([])('https://app.test')).toBe(false)
  })

  it('normalizes pattern case, trailing slash and default port', () => {
    const match = createOriginMatcher(['HTTPS://App.Test:443/', 'HTTP://*.Dev.Test:80'])
    expect(match('https://app.test')).toBe(true)
    expect(match('http://a.dev.test')).toBe(true)
    expect(match('http://a.dev.test:80')).toBe(true)
    expect(match('http://a.dev.test:8080')).toBe(false)
  })

  it('applies a port on a scheme-less wildcard to both schemes', () => {
    const match = createOriginMatcher(['*.dev.test:8080'])
    expect(match('http://a.dev.test:8080')).toBe(true)
    expect(match('https://a.dev.test:8080')).toBe(true)
    expect(match('https://a.dev.test')).toBe(false)
  })

  it('matches IP literals exactly', () => {
    const match = createOriginMatcher(['http://127.0.0.1:3000'])
    expect(match('http://127.0.0.1:3000')).toBe(true)
    expect(match('http://127.0.0.2:3000')).toBe(false)
  })

  it.each([
    'app.test',
    'https://app.test/path',
    'https://app.test?x',
    'https://app.test#x',
    'https://user@app.test',
    'ftp://app.test',
    '*',
    '*.',
    'https://*',
    'https://*.',
    'https://*app.test',
    'https://app*.test',
    'https://a.*.test',
    'https://*.*.test',
    'https://*.app.test/path',
    'https://*.app..test',
    'https://*.app.test.',
    'https://*.app.test:99999',
    'https://*.app_x.test',
    '',
  ])('rejects the pattern %j at start-up', (pattern) => {
    expect(() => createOriginMatcher([pattern])).toThrow(/Invalid trusted origin/)
  })
})

describe('getOrigin / parseHttpUrl', () => {
  it.each([
    ['https://app.test/cb?x=1#y', 'https://app.test'],
    ['HTTP://Example.Test:80/x', 'http://example.test'],
    ['https://example.test:8443', 'https://example.test:8443'],
    ['http://[::1]:3000/', 'http://[::1]:3000'],
    ['https://app.test@evil.test', null],
    ['javascript:alert(1)', null],
    ['/relative', null],
    ['https:evil.test', null],
    ['not a url', null],
    ['', null],
  ])('%j -> %j', (input, expected) => {
    expect(getOrigin(input)).toBe(expected)
    expect(parseHttpUrl(input)?.origin ?? null).toBe(expected)
  })
})
