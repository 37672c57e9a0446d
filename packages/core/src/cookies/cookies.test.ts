import { utf8ToBytes } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { sign } from '../crypto/hmac.js'
import { createSecrets } from '../crypto/keys.js'
import { parseCookieHeader } from './cookie-header.js'
import { createCookieConfig, signCookieValue, verifySignedCookieValue } from './cookies.js'

describe('createCookieConfig', () => {
  it('names cookies with __Host- over https without a Domain (no sibling can set them) and sets safe defaults', () => {
    const config = createCookieConfig({ secure: true })
    expect(config.secure).toBe(true)
    expect(config.sessionToken.name).toBe('__Host-gatehouse.session_token')
    expect(config.sessionData.name).toBe('__Host-gatehouse.session_data')
    expect(config.dontRemember.name).toBe('__Host-gatehouse.dont_remember')
    expect(config.sessionToken.attributes).toEqual({ httpOnly: true, sameSite: 'lax', path: '/', secure: true })
  })

  it('keeps __Secure- when a Domain shares the cookies with subdomains, or the path is not /', () => {
    const shared = createCookieConfig({ secure: true, crossSubDomain: { domain: 'app.test' } })
    expect(shared.sessionToken.name).toBe('__Secure-gatehouse.session_token')
    expect(shared.sessionData.name).toBe('__Secure-gatehouse.session_data')
    expect(shared.dontRemember.name).toBe('__Secure-gatehouse.dont_remember')
    const scoped = createCookieConfig({ secure: true, attributes: { path: '/api/auth' } })
    expect(scoped.sessionToken.name).toBe('__Secure-gatehouse.session_token')
  })

  it('drops the prefix and Secure over http', () => {
    const config = createCookieConfig({ secure: false, prefix: 'myapp' })
    expect(config.secure).toBe(false)
    expect(config.sessionToken.name).toBe('myapp.session_token')
    expect(config.sessionToken.attributes).toEqual({ httpOnly: true, sameSite: 'lax', path: '/' })
    expect(config.sessionToken.serialize('t')).toBe('myapp.session_token=t; Path=/; HttpOnly; SameSite=Lax')
  })

  it('serializes with a lifetime, without one (browser session), and clears with Max-Age=0', () => {
    const { sessionToken } = createCookieConfig({ secure: true })
    expect(sessionToken.serialize('abc.sig', { maxAge: 604800 })).toBe(
      '__Host-gatehouse.session_token=abc.sig; Max-Age=604800; Path=/; HttpOnly; Secure; SameSite=Lax',
    )
    expect(sessionToken.serialize('abc.sig')).not.toMatch(/Max-Age|Expires/)
    expect(sessionToken.clear()).toBe('__Host-gatehouse.session_token=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax')
  })

  it('shares cookies across subdomains with a normalized Domain', () => {
    const config = createCookieConfig({ secure: true, crossSubDomain: { domain: '.App.Test' } })
    expect(config.sessionToken.attributes.domain).toBe('app.test')
    expect(config.sessionToken.serialize('v')).toContain('; Domain=app.test;')
    expect(() => createCookieConfig({ secure: true, crossSubDomain: { domain: 'app.test; Secure' } })).toThrow(TypeError)
    expect(() => createCookieConfig({ secure: true, crossSubDomain: { domain: '' } })).toThrow(TypeError)
  })

  it('lets attributes override defaults, keeping the prefix consistent with Secure', () => {
    const strict = createCookieConfig({ secure: true, attributes: { sameSite: 'strict' } })
    expect(strict.sessionToken.attributes.sameSite).toBe('strict')
    const insecure = createCookieConfig({ secure: true, attributes: { secure: false } })
    expect(insecure.sessionToken.name).toBe('gatehouse.session_token')
    expect(insecure.secure).toBe(false)
    const forced = createCookieConfig({ secure: false, attributes: { secure: true } })
    expect(forced.sessionToken.name).toBe('__Host-gatehouse.session_token')
  })

  it('ignores lifetimes in the fixed policy', () => {
    const config = createCookieConfig({ secure: false, attributes: { maxAge: 99 } })
    expect(config.sessionToken.attributes).not.toHaveProperty('maxAge')
    expect(config.sessionToken.serialize('v')).not.toContain('Max-Age')
  })

  it('makes other cookies under the same policy', () => {
    const config = createCookieConfig({ secure: true })
    const state = config.cookie('oauth_state', { maxAge: 600, sameSite: 'none' })
    expect(state.name).toBe('__Host-gatehouse.oauth_state')
    expect(state.serialize('s', { maxAge: 600 })).toBe(
      '__Host-gatehouse.oauth_state=s; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=None',
    )
  })

  it.each(['', 'a.b', 'a b', 'a;b', '__Host-x'])('rejects the prefix %j', (prefix) => {
    expect(() => createCookieConfig({ secure: true, prefix })).toThrow(TypeError)
  })

  it.each(['', 'a.b', 'a=b', 'a b'])('rejects the cookie name %j', (name) => {
    expect(() => createCookieConfig({ secure: true }).cookie(name)).toThrow(TypeError)
  })
})

describe('signed cookie values', () => {
  const secrets = createSecrets('cookie-secret-0123456789abcdefghijkl')
  const key = secrets.key('cookie-signature')
  const keys = secrets.keys('cookie-signature')
  const signed = signCookieValue('token123', key)

  it('formats as value.signature and verifies', () => {
    expect(signed).toMatch(/^token123\.[A-Za-z0-9_-]{43}$/)
    expect(verifySignedCookieValue(signed, keys)).toBe('token123')
  })

  it('keeps dots inside the value', () => {
    const dotted = signCookieValue('a.b.c', key)
    expect(verifySignedCookieValue(dotted, keys)).toBe('a.b.c')
  })

  it('survives the cookie header round trip, even for values needing encoding', () => {
    const config = createCookieConfig({ secure: true })
    for (const value of ['token123', 'x y;z=1', '{"a":1}']) {
      const header = config.sessionData.serialize(signCookieValue(value, key)).split('; ')[0] ?? ''
      const read = parseCookieHeader(header).get(config.sessionData.name)
      expect(verifySignedCookieValue(read, keys)).toBe(value)
    }
  })

  const signature = signed.slice(signed.lastIndexOf('.') + 1)
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['empty', ''],
    ['no dot', 'token123'],
    ['only a dot', '.'],
    ['empty value with a signature', `.${signature}`],
    ['empty signature', 'token123.'],
    ['changed value', `token124.${signature}`],
    ['value with extra dot segment', `token123.x.${signature}`],
    ['prepended value', `a.token123.${signature}`],
    ['changed signature', `token123.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`],
    ['signature padded', `${signed}=`],
    ['signature appended twice', `${signed}.${signature}`],
    ['unsigned value with a forged signature', `token123.${'A'.repeat(43)}`],
    ['signed with another key', signCookieValue('token123', utf8ToBytes('x'.repeat(32)))],
    ['signed for another purpose', signCookieValue('token123', secrets.key('session-data'))],
  ])('rejects %s', (_name, candidate) => {
    expect(verifySignedCookieValue(candidate, keys)).toBeNull()
  })

  it('verifies during a secret rotation and stops when the old secret is gone', () => {
    const oldSecrets = createSecrets('old-secret-0123456789abcdefghijklmnop')
    const oldSigned = signCookieValue('session', oldSecrets.key('cookie-signature'))
    const rotated = createSecrets(['new-secret-0123456789abcdefghijklmnop', 'old-secret-0123456789abcdefghijklmnop'])
    expect(verifySignedCookieValue(oldSigned, rotated.keys('cookie-signature'))).toBe('session')
    const newSigned = signCookieValue('session', rotated.key('cookie-signature'))
    expect(newSigned).not.toBe(oldSigned)
    expect(verifySignedCookieValue(newSigned, rotated.keys('cookie-signature'))).toBe('session')
    // An old deployment (old secret only) cannot read the new cookie, and after
    // dropping the old secret the old cookie stops working.
    expect(verifySignedCookieValue(newSigned, oldSecrets.keys('cookie-signature'))).toBeNull()
    const dropped = createSecrets('new-secret-0123456789abcdefghijklmnop')
    expect(verifySignedCookieValue(oldSigned, dropped.keys('cookie-signature'))).toBeNull()
  })

  it('signs exactly what crypto/hmac signs', () => {
    expect(signed).toBe(`token123.${sign('token123', key)}`)
  })
})
