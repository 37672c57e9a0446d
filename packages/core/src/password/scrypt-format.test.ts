import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { encodeBase64urlNoPadding } from '@oslojs/encoding'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_SCRYPT_PARAMS,
  formatScryptHash,
  parsePasswordHash,
  SCRYPT_LIMITS,
  withinLimits,
} from './scrypt-format.js'

const salt = Uint8Array.from({ length: 16 }, (_, i) => i * 7)
const key = Uint8Array.from({ length: 64 }, (_, i) => 255 - i)
const b64 = (bytes: Uint8Array) => encodeBase64urlNoPadding(bytes)

function ours(n: number | string, r: number | string, p: number | string, s = b64(salt), k = b64(key)): string {
  return `scrypt$${n}$${r}$${p}$${s}$${k}`
}

describe('formatScryptHash', () => {
  it('writes every parameter, then the salt and key in unpadded base64url', () => {
    const hash = formatScryptHash(DEFAULT_SCRYPT_PARAMS, salt, key)
    expect(hash).toBe(`scrypt$16384$16$1$${b64(salt)}$${b64(key)}`)
    expect(hash).not.toContain('=')
  })

  it('refuses a key whose length disagrees with the parameters', () => {
    expect(() => formatScryptHash(DEFAULT_SCRYPT_PARAMS, salt, key.slice(1))).toThrow(RangeError)
  })

  it('round-trips through parsePasswordHash', () => {
    const parsed = parsePasswordHash(formatScryptHash(DEFAULT_SCRYPT_PARAMS, salt, key))
    expect(parsed).toEqual({ format: 'scrypt', params: DEFAULT_SCRYPT_PARAMS, salt, key })
  })
})

describe('parsePasswordHash: our format', () => {
  it('reads parameters other than the defaults, so raised defaults keep old hashes readable', () => {
    const parsed = parsePasswordHash(ours(2 ** 15, 8, 2, b64(salt), b64(key.slice(0, 32))))
    expect(parsed?.params).toEqual({ N: 2 ** 15, r: 8, p: 2, keyLength: 32 })
  })

  it.each([
    ['empty', ''],
    ['only the prefix', 'scrypt$'],
    ['wrong prefix', ours(16384, 16, 1).replace('scrypt$', 'bcrypt$')],
    ['argon2 string', '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2g'],
    ['a missing field', `scrypt$16384$16$${b64(salt)}$${b64(key)}`],
    ['an extra field', `${ours(16384, 16, 1)}$x`],
    ['N not a number', ours('abc', 16, 1)],
    ['N with a leading zero', ours('016384', 16, 1)],
    ['N in hex', ours('0x4000', 16, 1)],
    ['N with an exponent', ours('1e4', 16, 1)],
    ['N negative', ours(-16384, 16, 1)],
    ['N not a power of two', ours(10000, 16, 1)],
    ['N = 1', ours(1, 16, 1)],
    ['absurd N = 2^30', ours(2 ** 30, 16, 1)],
    ['N = 2^20 with the default r (512 MiB)', ours(2 ** 20, 16, 1)],
    ['r = 0', ours(16384, 0, 1)],
    ['absurd r', ours(16384, 100000, 1)],
    ['p = 0', ours(16384, 16, 0)],
    ['absurd p', ours(16384, 16, 1000000)],
    ['work past the cap (N·r·p = 2^23)', ours(2 ** 16, 16, 8)],
    ['salt with a padding character', ours(16384, 16, 1, `${b64(salt)}==`)],
    ['salt in standard base64', ours(16384, 16, 1, 'ab+/cdefghijklmnopqrstuv')],
    ['salt of impossible length', ours(16384, 16, 1, 'abcde')],
    ['salt not canonical (trailing bits set)', ours(16384, 16, 1, `${b64(salt).slice(0, -1)}B`)],
    ['salt too short', ours(16384, 16, 1, b64(salt.slice(0, 4)))],
    ['empty key', ours(16384, 16, 1, b64(salt), '')],
    ['key too short', ours(16384, 16, 1, b64(salt), b64(key.slice(0, 8)))],
    ['key with a space', ours(16384, 16, 1, b64(salt), ` ${b64(key)}`)],
  ])('rejects %s', (_, hash) => {
    expect(parsePasswordHash(hash)).toBeUndefined()
  })

  it('rejects a non-string from an untyped caller', () => {
    const stored: unknown = null
    expect(parsePasswordHash(stored as string)).toBeUndefined()
  })
})

describe('parsePasswordHash: the hex format of other libraries', () => {
  const saltHex = bytesToHex(salt)
  const keyHex = bytesToHex(key)

  it('uses the salt hex text itself as the salt and the default parameters', () => {
    const parsed = parsePasswordHash(`${saltHex}:${keyHex}`)
    expect(parsed).toEqual({ format: 'hex', params: DEFAULT_SCRYPT_PARAMS, salt: utf8ToBytes(saltHex), key })
  })

  it('accepts an upper-case key', () => {
    expect(parsePasswordHash(`${saltHex}:${keyHex.toUpperCase()}`)?.key).toEqual(key)
  })

  it.each([
    ['no colon', `${saltHex}${keyHex}`],
    ['two colons', `${saltHex}:${keyHex}:00`],
    ['empty salt', `:${keyHex}`],
    ['non-hex salt', `${saltHex.slice(0, -1)}g:${keyHex}`],
    ['short key (32 bytes)', `${saltHex}:${keyHex.slice(0, 64)}`],
    ['long key', `${saltHex}:${keyHex}00`],
    ['non-hex key', `${saltHex}:${keyHex.slice(0, -1)}z`],
  ])('rejects %s', (_, hash) => {
    expect(parsePasswordHash(hash)).toBeUndefined()
  })
})

describe('withinLimits', () => {
  it('accepts the defaults and the largest allowed raise', () => {
    expect(withinLimits(DEFAULT_SCRYPT_PARAMS)).toBe(true)
    expect(withinLimits({ N: 2 ** 16, r: 16, p: 4, keyLength: 64 })).toBe(true)
    expect(128 * 2 ** 16 * 16).toBe(SCRYPT_LIMITS.maxMemoryBytes)
  })

  it('rejects memory past 128 MiB and fractional values', () => {
    expect(withinLimits({ N: 2 ** 17, r: 16, p: 1, keyLength: 64 })).toBe(false)
    expect(withinLimits({ N: 16384, r: 1.5, p: 1, keyLength: 64 })).toBe(false)
    expect(withinLimits({ N: 16384, r: 16, p: 1, keyLength: 64.5 })).toBe(false)
    expect(withinLimits({ N: Number.NaN, r: 16, p: 1, keyLength: 64 })).toBe(false)
  })
})
