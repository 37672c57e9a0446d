import { hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { sign, SIGNATURE_LENGTH, verify } from './hmac.js'
import { createSecrets } from './keys.js'

const keyA = utf8ToBytes('a'.repeat(32))
const keyB = utf8ToBytes('b'.repeat(32))

describe('sign', () => {
  it('matches RFC 4231 test case 2 (HMAC-SHA256, key "Jefe")', () => {
    // Expected hex 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843, as base64url.
    const expected = Buffer.from(
      hexToBytes('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'),
    ).toString('base64url')
    expect(sign('what do ya want for nothing?', utf8ToBytes('Jefe'))).toBe(expected)
  })

  it('is base64url without padding, 43 characters', () => {
    for (const value of ['', 'x', 'token.with.dots', 'ünïcödé', '?'.repeat(1000)]) {
      const signature = sign(value, keyA)
      expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(signature).toHaveLength(SIGNATURE_LENGTH)
    }
  })

  it('depends on the key and the value', () => {
    expect(sign('v', keyA)).not.toBe(sign('v', keyB))
    expect(sign('v', keyA)).not.toBe(sign('w', keyA))
  })
})

describe('verify', () => {
  const value = 'session-token-abc'
  const signature = sign(value, keyA)

  it('accepts the right signature', () => {
    expect(verify(value, signature, [keyA])).toBe(true)
  })

  it('accepts a signature made with any of the keys (rotation)', () => {
    expect(verify(value, signature, [keyB, keyA])).toBe(true)
    expect(verify(value, sign(value, keyB), [keyB, keyA])).toBe(true)
  })

  it('rejects when no key matches or there are no keys', () => {
    expect(verify(value, signature, [keyB])).toBe(false)
    expect(verify(value, signature, [])).toBe(false)
  })

  it.each([
    ['another value', 'session-token-abd', signature],
    ['a truncated value', 'session-token-ab', signature],
    ['an extended value', 'session-token-abcd', signature],
    ['a flipped last character', value, `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`],
    ['a flipped first character', value, `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`],
    ['a padded signature', value, `${signature}=`],
    ['a truncated signature', value, signature.slice(0, -1)],
    ['standard base64 instead of base64url', value, signature.replace(/-/g, '+').replace(/_/g, '/')],
    ['an empty signature', value, ''],
    ['the value as its own signature', value, value],
  ])('rejects %s', (_name, candidateValue, candidateSignature) => {
    if (candidateSignature === signature && candidateValue === value) throw new Error('table row does not tamper')
    expect(verify(candidateValue, candidateSignature, [keyA])).toBe(false)
  })

  it('rejects a non-canonical encoding of the right MAC', () => {
    // 32 bytes leave 2 unused bits in the last base64url character; setting them
    // decodes to the same bytes, yet must not verify (no signature malleability).
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const last = alphabet.indexOf(signature.at(-1) ?? '')
    expect(last & 3).toBe(0)
    for (const bits of [1, 2, 3]) {
      const variant = `${signature.slice(0, -1)}${alphabet[last | bits]}`
      expect(Buffer.from(variant, 'base64url')).toEqual(Buffer.from(signature, 'base64url'))
      expect(verify(value, variant, [keyA])).toBe(false)
    }
  })

  it('does not let one purpose verify another', () => {
    const secrets = createSecrets('s'.repeat(40))
    const cookieSignature = sign(value, secrets.key('cookie-signature'))
    expect(verify(value, cookieSignature, secrets.keys('cookie-signature'))).toBe(true)
    expect(verify(value, cookieSignature, secrets.keys('email-verification'))).toBe(false)
  })

  it('survives a rotation and stops after the old secret is dropped', () => {
    const old = createSecrets('old'.repeat(12))
    const signed = sign(value, old.key('cookie-signature'))
    const rotated = createSecrets(['new'.repeat(12), 'old'.repeat(12)])
    expect(verify(value, signed, rotated.keys('cookie-signature'))).toBe(true)
    const dropped = createSecrets('new'.repeat(12))
    expect(verify(value, signed, dropped.keys('cookie-signature'))).toBe(false)
  })
})
