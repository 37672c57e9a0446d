import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import {
  constantTimeEqual,
  createSecrets,
  MIN_SECRET_LENGTH,
  sha256Base64url,
  sha256Hex,
  sharedKey,
  sharedKeys,
  validateSecrets,
  type Secrets,
} from './keys.js'

const NEW = 'new-secret-0123456789abcdefghijklmnopqrstuvwxyz'
const OLD = 'old-secret-0123456789abcdefghijklmnopqrstuvwxyz'

describe('createSecrets', () => {
  it('derives 32-byte keys with HKDF-SHA256, the purpose as info', () => {
    const key = createSecrets(NEW).key('cookie-signature')
    expect(key).toHaveLength(32)
    const expected = hkdf(sha256, utf8ToBytes(NEW), utf8ToBytes('gatehouse/hkdf/v1'), utf8ToBytes('cookie-signature'), 32)
    expect(bytesToHex(key)).toBe(bytesToHex(expected))
  })

  it('gives unrelated keys for different purposes and different secrets', () => {
    const secrets = createSecrets(NEW)
    const purposes = ['cookie-signature', 'session-data', 'email-verification', 'cookie-signature ']
    const hexes = purposes.map((purpose) => bytesToHex(secrets.key(purpose)))
    expect(new Set(hexes).size).toBe(purposes.length)
    expect(bytesToHex(createSecrets(OLD).key('session-data'))).not.toBe(bytesToHex(secrets.key('session-data')))
    // Never the secret itself.
    expect(hexes).not.toContain(bytesToHex(utf8ToBytes(NEW).slice(0, 32)))
  })

  it('is stable across instances and calls', () => {
    const a = createSecrets(NEW)
    expect(bytesToHex(a.key('x'))).toBe(bytesToHex(a.key('x')))
    expect(bytesToHex(a.key('x'))).toBe(bytesToHex(createSecrets([NEW]).key('x')))
  })

  it('signs with the newest secret and verifies with all, newest first', () => {
    const rotated = createSecrets([NEW, OLD])
    const keys = rotated.keys('session-data')
    expect(keys).toHaveLength(2)
    expect(bytesToHex(rotated.key('session-data'))).toBe(bytesToHex(createSecrets(NEW).key('session-data')))
    expect(keys.map((key) => bytesToHex(key))).toEqual([
      bytesToHex(createSecrets(NEW).key('session-data')),
      bytesToHex(createSecrets(OLD).key('session-data')),
    ])
  })

  it('hands out copies, so a caller cannot corrupt the cache', () => {
    const secrets = createSecrets(NEW)
    const before = bytesToHex(secrets.key('p'))
    secrets.key('p').fill(0)
    secrets.keys('p')[0]?.fill(0)
    expect(bytesToHex(secrets.key('p'))).toBe(before)
  })

  it('sharedKeys gives the same key arrays on every call, with the bytes keys() copies', () => {
    const secrets = createSecrets([NEW, OLD])
    const shared = sharedKeys(secrets, 'cookie:session_token')
    expect(sharedKeys(secrets, 'cookie:session_token')).toBe(shared)
    expect(sharedKey(secrets, 'cookie:session_token')).toBe(shared[0])
    expect(shared.map((key) => bytesToHex(key))).toEqual(secrets.keys('cookie:session_token').map((key) => bytesToHex(key)))
    expect(secrets.keys('cookie:session_token')[0]).not.toBe(shared[0])
    expect(bytesToHex(sharedKey(secrets, 'other'))).not.toBe(bytesToHex(shared[0] ?? new Uint8Array()))
  })

  it('sharedKeys falls back to keys() for Secrets made elsewhere', () => {
    const key = new Uint8Array(32).fill(9)
    const custom: Secrets = { key: () => key, keys: () => [key] }
    expect(sharedKeys(custom, 'p')).toEqual([key])
    expect(sharedKey(custom, 'p')).toBe(key)
  })

  it('rejects no secret, an empty secret and an empty purpose', () => {
    expect(() => createSecrets([])).toThrow(TypeError)
    expect(() => createSecrets('')).toThrow(TypeError)
    expect(() => createSecrets([NEW, ''])).toThrow(TypeError)
    expect(() => createSecrets(NEW).key('')).toThrow(/purpose/)
  })
})

describe('validateSecrets', () => {
  const long = 'a'.repeat(MIN_SECRET_LENGTH)
  const short = 'a'.repeat(MIN_SECRET_LENGTH - 1)

  it.each([
    ['missing', undefined, /No secret is configured/],
    ['empty string', '', /No secret is configured/],
    ['empty list', [], /No secret is configured/],
    ['31 characters', short, /The secret is 31 characters long; at least 32/],
    ['a short entry in a list', [long, short], /Secret #2 of 2 is 31 characters long/],
    ['an empty entry in a list', [long, ''], /Secret #2 of 2 is 0 characters long/],
  ] as const)('fails in production: %s', (_name, secrets, message) => {
    const result = validateSecrets(secrets, { production: true })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.message).toMatch(message)
    expect(result.message).toContain('openssl rand -base64 32')
  })

  it('only warns outside production', () => {
    const result = validateSecrets(undefined, { production: false })
    expect(result).toEqual({ ok: true, warning: expect.stringContaining('openssl rand -base64 32') })
    expect(validateSecrets(short, { production: false })).toMatchObject({ ok: true, warning: expect.stringMatching(/31 characters/) })
  })

  it('accepts 32 characters and longer lists of them', () => {
    expect(validateSecrets(long, { production: true })).toEqual({ ok: true })
    expect(validateSecrets([NEW, OLD], { production: true })).toEqual({ ok: true })
    expect(validateSecrets(NEW, { production: false })).toEqual({ ok: true })
  })
})

describe('token hashing', () => {
  it('hashes with SHA-256 (FIPS 180-4 test vector "abc")', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(sha256Base64url('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0')
  })

  it('hashes UTF-8, not UTF-16', () => {
    expect(sha256Hex('é')).toBe(bytesToHex(sha256(new Uint8Array([0xc3, 0xa9]))))
  })
})

describe('constantTimeEqual', () => {
  it.each([
    ['abc', 'abc', true],
    ['', '', true],
    ['abc', 'abd', false],
    ['abc', 'ab', false],
    ['abc', 'abcd', false],
    ['é', 'e\u0301', false],
    ['ﬀ', 'ff', false],
  ])('%j vs %j -> %s', (a, b, expected) => {
    expect(constantTimeEqual(a, b)).toBe(expected)
  })

  it('compares bytes and mixes strings with bytes as UTF-8', () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true)
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false)
    expect(constantTimeEqual(new Uint8Array([0x80]), new Uint8Array([0x00]))).toBe(false)
    expect(constantTimeEqual('é', new Uint8Array([0xc3, 0xa9]))).toBe(true)
  })

  it('compares two strings by code unit: same answer for well-formed text, stricter for lone surrogates', () => {
    expect(constantTimeEqual('é😀 token', 'é😀 token')).toBe(true)
    expect(constantTimeEqual('😀', '😁')).toBe(false)
    expect(constantTimeEqual('\u0100', '\u0000')).toBe(false)
    // Both encode to U+FFFD's bytes in UTF-8, yet they are different strings.
    expect(constantTimeEqual('\uD800', '\uDFFF')).toBe(false)
  })

  it('notices a difference in any position', () => {
    const base = 'x'.repeat(64)
    for (let i = 0; i < base.length; i++) {
      const changed = `${base.slice(0, i)}y${base.slice(i + 1)}`
      expect(constantTimeEqual(base, changed)).toBe(false)
    }
  })
})
