import { describe, expect, it } from 'vitest'
import { createOriginMatcher } from './origins.js'
import { checkRedirectTarget, isSafeRelativePath } from './redirects.js'

describe('isSafeRelativePath: accepted', () => {
  it.each([
    '/',
    '/dashboard',
    '/dashboard/',
    '/a/b/c',
    '/dashboard?tab=2',
    '/dashboard?tab=2&x=a%20b',
    '/dashboard#section',
    '/search?q=a/b#frag/ment',
    '/café',
    '/caf%C3%A9',
    '/a%3Fb',
    '/..foo',
    '/foo..',
    '/.well-known/x',
    '/a-b_c~d.e',
    '/cb?next=/dashboard',
  ])('%j', (path) => {
    expect(isSafeRelativePath(path)).toBe(true)
  })
})

describe('isSafeRelativePath: refused', () => {
  it.each([
    // Not a rooted path.
    ['empty', ''],
    ['bare name', 'dashboard'],
    ['dot relative', './dashboard'],
    ['parent relative', '../dashboard'],
    ['query only', '?x=1'],
    ['hash only', '#x'],
    ['absolute URL', 'https://evil.test'],
    ['scheme relative', 'https:evil.test'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:text/html,<script>alert(1)</script>'],
    // Double slashes.
    ['protocol-relative', '//evil.test'],
    ['triple slash', '///evil.test'],
    ['double slash later', '/a//evil.test'],
    ['double slash in query', '/cb?next=https://evil.test'],
    ['double slash in hash', '/cb#//evil.test'],
    // Backslashes.
    ['slash backslash', '/\\evil.test'],
    ['backslash slash', '\\/evil.test'],
    ['double backslash', '\\\\evil.test'],
    ['backslash later', '/a\\b'],
    // Encoded slash and backslash, any case, any depth.
    ['encoded slash', '/%2fevil.test'],
    ['encoded slash upper', '/%2Fevil.test'],
    ['encoded double slash', '/%2F%2Fevil.test'],
    ['encoded backslash', '/%5cevil.test'],
    ['encoded backslash upper', '/%5Cevil.test'],
    ['double-encoded slash', '/%252fevil.test'],
    ['double-encoded slash upper', '/%252Fevil.test'],
    ['double-encoded backslash', '/%255cevil.test'],
    ['triple-encoded slash', '/%25252fevil.test'],
    ['mixed-case double encoding', '/%252F%255C'],
    ['encoded slash in query', '/cb?x=%2f'],
    // Dot segments.
    ['parent segment', '/../evil'],
    ['parent segment at end', '/a/..'],
    ['parent segment before query', '/a/..?x'],
    ['current segment', '/./a'],
    ['encoded parent segment', '/%2e%2e/evil'],
    ['half-encoded parent segment', '/.%2E/evil'],
    ['double-encoded parent segment', '/%252e%252e/evil'],
    // Whitespace and control characters, raw or encoded.
    ['tab after slash', '/\t/evil.test'],
    ['newline after slash', '/\n/evil.test'],
    ['carriage return', '/a\rb'],
    ['space', '/a b'],
    ['leading space', ' /dashboard'],
    ['trailing space', '/dashboard '],
    ['NUL', '/a\u0000'],
    ['DEL', '/a\u007f'],
    ['no-break space', '/a\u00a0b'],
    ['line separator', '/a\u2028b'],
    ['ideographic space', '/a\u3000b'],
    ['encoded CRLF', '/a%0d%0aSet-Cookie:x=y'],
    ['double-encoded LF', '/a%250a'],
    ['encoded NUL', '/a%00'],
    ['encoded tab', '/%09/evil.test'],
  ])('%s: %j', (_name, path) => {
    expect(isSafeRelativePath(path)).toBe(false)
  })
})

describe('checkRedirectTarget', () => {
  const isTrusted = createOriginMatcher(['https://app.test', 'https://*.app.test', 'http://localhost:3000'])

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['relative path', '/dashboard'],
    ['relative with query and hash', '/dashboard?x=1#y'],
    ['trusted origin', 'https://app.test'],
    ['trusted URL', 'https://app.test/welcome?x=1'],
    ['trusted subdomain', 'https://admin.app.test/x'],
    ['trusted localhost', 'http://localhost:3000/cb'],
    ['uppercase scheme and host', 'HTTPS://APP.TEST/x'],
  ])('accepts %s', (_name, value) => {
    expect(checkRedirectTarget(value, isTrusted)).toEqual({ ok: true })
  })

  it.each([
    ['untrusted origin', 'https://evil.test'],
    ['trusted as prefix', 'https://app.test.evil.test/'],
    ['suffix lookalike', 'https://evilapp.test'],
    ['query trick', 'https://evil.test?.app.test'],
    ['fragment trick', 'https://evil.test#.app.test'],
    ['path trick', 'https://evil.test/.app.test'],
    ['credentials', 'https://app.test@evil.test'],
    ['credentials with port', 'https://app.test:443@evil.test/'],
    ['wrong scheme', 'http://app.test'],
    ['wrong port', 'https://app.test:8443'],
    ['protocol-relative', '//evil.test'],
    ['protocol-relative to trusted', '//app.test'],
    ['slash backslash', '/\\evil.test'],
    ['backslash in absolute', 'https://evil.test\\@app.test'],
    ['scheme without slashes', 'https:evil.test'],
    ['scheme without slashes to trusted', 'https:app.test'],
    ['one slash', 'https:/evil.test'],
    ['javascript', 'javascript:alert(1)'],
    ['javascript uppercase', 'JavaScript:alert(1)'],
    ['javascript with comment', 'javascript://app.test/%0aalert(1)'],
    ['data', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['vbscript', 'vbscript:msgbox(1)'],
    ['blob', 'blob:https://app.test/uuid'],
    ['file', 'file:///etc/passwd'],
    ['mailto', 'mailto:a@app.test'],
    ['bare host', 'evil.test'],
    ['dot relative', './x'],
    ['leading whitespace absolute', ' https://app.test'],
    ['tab in scheme', 'java\tscript:alert(1)'],
    ['newline in host', 'https://app.\ntest'],
    ['encoded slash path', '/%2f%2fevil.test'],
    ['double-encoded slash path', '/%252f%252fevil.test'],
    ['fullwidth host', 'https://ａpp.test'],
  ])('refuses %s: %j', (_name, value) => {
    expect(checkRedirectTarget(value, isTrusted)).toEqual({ ok: false })
  })

  it('passes the parsed origin, not the raw value, to isTrusted', () => {
    const seen: string[] = []
    checkRedirectTarget('HTTPS://App.Test:443/path?q#h', (origin) => {
      seen.push(origin)
      return true
    })
    expect(seen).toEqual(['https://app.test'])
  })

  it('refuses everything absolute when nothing is trusted', () => {
    expect(checkRedirectTarget('https://app.test', () => false)).toEqual({ ok: false })
    expect(checkRedirectTarget('/still-fine', () => false)).toEqual({ ok: true })
  })
})
