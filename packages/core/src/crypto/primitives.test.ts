import { describe, expect, it } from 'vitest'
import { noblePrimitives, primitives } from './primitives.js'

describe('hash primitives', () => {
  it('uses node:crypto on Node', () => {
    expect(primitives.backend).toBe('node')
  })

  it('both backends give the same bytes (RFC 4231 case 2, FIPS 180-2 "abc")', () => {
    const key = new TextEncoder().encode('Jefe')
    const message = 'what do ya want for nothing?'
    const expected = Buffer.from('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843', 'hex').toString('base64url')
    expect(noblePrimitives.hmacSha256Base64url(key, message)).toBe(expected)
    expect(primitives.hmacSha256Base64url(key, message)).toBe(expected)
    const abc = Buffer.from('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'hex').toString('base64url')
    expect(noblePrimitives.sha256Base64url('abc')).toBe(abc)
    expect(primitives.sha256Base64url('abc')).toBe(abc)
  })

  it('base64url text round-trips the same on both backends and refuses invalid input', () => {
    for (const text of ['', 'a', '{"session":{"id":"x"}}', 'é😀'.repeat(50)]) {
      const encoded = primitives.encodeBase64urlText(text)
      expect(noblePrimitives.encodeBase64urlText(text)).toBe(encoded)
      expect(encoded).not.toMatch(/[=+/]/)
      expect(primitives.decodeBase64urlText(encoded)).toBe(text)
      expect(noblePrimitives.decodeBase64urlText(encoded)).toBe(text)
    }
    for (const bad of ['a b', 'abc=', 'ab+/', '%%']) {
      expect(primitives.decodeBase64urlText(bad)).toBeNull()
      expect(noblePrimitives.decodeBase64urlText(bad)).toBeNull()
    }
  })

  it('agree on unicode input', () => {
    const key = new Uint8Array(32).fill(7)
    for (const text of ['', 'é', '😀 session', 'x'.repeat(10_000)]) {
      expect(primitives.hmacSha256Base64url(key, text)).toBe(noblePrimitives.hmacSha256Base64url(key, text))
      expect(primitives.sha256Base64url(text)).toBe(noblePrimitives.sha256Base64url(text))
    }
  })
})
