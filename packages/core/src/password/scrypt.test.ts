import { randomBytes, scryptSync } from 'node:crypto'
import { encodeBase64urlNoPadding } from '@oslojs/encoding'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { hashPassword, passwordBytes, verifyPassword } from './scrypt.js'
import { deriveScryptKey, detectScryptBackend } from './scrypt-kdf.js'

// Count key derivations without changing them: proves which paths run scrypt.
vi.mock('./scrypt-kdf.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./scrypt-kdf.js')>()
  return { ...original, deriveScryptKey: vi.fn(original.deriveScryptKey) }
})
const derivations = vi.mocked(deriveScryptKey)

beforeEach(() => {
  derivations.mockClear()
})

/** A reference hash made with node:crypto directly, independent of our code. */
function referenceScrypt(password: string, salt: Uint8Array | string): Buffer {
  return scryptSync(password.normalize('NFKC'), salt, 64, { N: 16384, r: 16, p: 1, maxmem: 64 * 2 ** 20 })
}

const b64 = (bytes: Uint8Array) => encodeBase64urlNoPadding(bytes)

describe('hashPassword and verifyPassword', () => {
  it('round-trips in the documented format', async () => {
    const hash = await hashPassword('correct horse battery staple')
    // 16-byte salt = 22 characters, 64-byte key = 86 characters of unpadded base64url.
    expect(hash).toMatch(/^scrypt\$16384\$16\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/)
    expect(await verifyPassword(hash, 'correct horse battery staple')).toBe(true)
  })

  it('rejects a wrong password, including near misses', async () => {
    const hash = await hashPassword('correct horse battery staple')
    expect(await verifyPassword(hash, 'correct horse battery stapler')).toBe(false)
    expect(await verifyPassword(hash, 'Correct horse battery staple')).toBe(false)
    expect(await verifyPassword(hash, 'correct horse battery staple ')).toBe(false)
    expect(await verifyPassword(hash, '')).toBe(false)
  })

  it('salts every hash: the same password gives different salts and keys', async () => {
    const [first, second] = await Promise.all([hashPassword('same password'), hashPassword('same password')])
    const [, , , , saltA, keyA] = first.split('$')
    const [, , , , saltB, keyB] = second.split('$')
    expect(saltA).not.toBe(saltB)
    expect(keyA).not.toBe(keyB)
    expect(await verifyPassword(first, 'same password')).toBe(true)
    expect(await verifyPassword(second, 'same password')).toBe(true)
  })

  it('computes standard scrypt: a hash built with node:crypto directly verifies', async () => {
    const salt = randomBytes(16)
    const hash = `scrypt$16384$16$1$${b64(salt)}$${b64(referenceScrypt('p4ssw0rd!', salt))}`
    expect(await verifyPassword(hash, 'p4ssw0rd!')).toBe(true)
    expect(await verifyPassword(hash, 'p4ssw0rd?')).toBe(false)
  })

  it('verifies with the parameters recorded in the hash, not the current defaults', async () => {
    const salt = randomBytes(16)
    const key = scryptSync('older hash', salt, 32, { N: 1024, r: 8, p: 2 })
    const hash = `scrypt$1024$8$2$${b64(salt)}$${b64(key)}`
    expect(await verifyPassword(hash, 'older hash')).toBe(true)
    expect(derivations.mock.calls[0]?.[2]).toEqual({ N: 1024, r: 8, p: 2, keyLength: 32 })
  })

  it('refuses a non-string password instead of hashing "undefined"', async () => {
    const hash = await hashPassword('undefined')
    const missing: unknown = undefined
    expect(await verifyPassword(hash, missing as string)).toBe(false)
    await expect(hashPassword(missing as string)).rejects.toThrow(TypeError)
  })
})

describe('Unicode: passwords are NFKC-normalised before hashing', () => {
  it.each([
    ['the ﬁ ligature', '\uFB01sh-and-chips', 'fish-and-chips'],
    ['precomposed and decomposed é', 'caf\u00E9 au lait', 'cafe\u0301 au lait'],
    ['full-width letters and digits', '\uFF21\uFF22\uFF23\uFF11\uFF12\uFF13', 'ABC123'],
  ])('treats %s as the same password', async (_, typed, other) => {
    expect(typed).not.toBe(other)
    expect(passwordBytes(typed)).toEqual(passwordBytes(other))
    expect(await verifyPassword(await hashPassword(typed), other)).toBe(true)
    expect(await verifyPassword(await hashPassword(other), typed)).toBe(true)
  })

  it('does not fold case or strip accents', async () => {
    const hash = await hashPassword('Café')
    expect(await verifyPassword(hash, 'café')).toBe(false)
    expect(await verifyPassword(hash, 'Cafe')).toBe(false)
  })

  it('hashes the UTF-8 bytes of non-Latin passwords', async () => {
    const hash = await hashPassword('пароль-密码-🔑')
    expect(await verifyPassword(hash, 'пароль-密码-🔑')).toBe(true)
    expect(await verifyPassword(hash, 'пароль-密码-🔒')).toBe(false)
  })
})

describe('long passwords are never truncated', () => {
  it.each([128, 1000])('a %i-character password fails when only its last character changes', async (length) => {
    const password = `${'x'.repeat(length - 1)}a`
    const changed = `${'x'.repeat(length - 1)}b`
    const hash = await hashPassword(password)
    expect(await verifyPassword(hash, password)).toBe(true)
    expect(await verifyPassword(hash, changed)).toBe(false)
    expect(await verifyPassword(hash, password.slice(0, -1))).toBe(false)
  })

  it('hashes every byte of multi-byte input past 72 bytes (bcrypt would stop there)', async () => {
    const password = `${'é'.repeat(100)}1`
    expect(passwordBytes(password)).toHaveLength(201)
    expect(await verifyPassword(await hashPassword(password), `${'é'.repeat(100)}2`)).toBe(false)
  })
})

describe('malformed stored hashes', () => {
  const key = b64(randomBytes(64))
  const salt = b64(randomBytes(16))

  it.each([
    ['empty', ''],
    ['wrong prefix', `bcrypt$16384$16$1$${salt}$${key}`],
    ['a bcrypt hash', '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy'],
    ['bad base64 salt', `scrypt$16384$16$1$${salt.slice(0, -2)}!!$${key}`],
    ['bad base64 key', `scrypt$16384$16$1$${salt}$${key.slice(0, -1)}*`],
    ['absurd N = 2^30', `scrypt$${2 ** 30}$16$1$${salt}$${key}`],
    ['r = 0', `scrypt$16384$0$1$${salt}$${key}`],
    ['absurd p', `scrypt$16384$16$99999$${salt}$${key}`],
    ['truncated', `scrypt$16384$16$1$${salt}`],
    ['hex with a short key', `${'ab'.repeat(16)}:${'cd'.repeat(32)}`],
  ])('%s gives false without running scrypt', async (_, hash) => {
    expect(await verifyPassword(hash, 'anything')).toBe(false)
    expect(derivations).not.toHaveBeenCalled()
  })

  it('a non-string hash gives false', async () => {
    const stored: unknown = null
    expect(await verifyPassword(stored as string, 'anything')).toBe(false)
  })
})

describe('the <salt hex>:<key hex> format of other libraries', () => {
  it('verifies, with the salt hex text as the salt input', async () => {
    const saltHex = randomBytes(16).toString('hex')
    const hash = `${saltHex}:${referenceScrypt('migrated password', saltHex).toString('hex')}`
    expect(await verifyPassword(hash, 'migrated password')).toBe(true)
    expect(await verifyPassword(hash, 'migrated passworD')).toBe(false)
  })

  it('applies NFKC as those libraries do', async () => {
    const saltHex = randomBytes(16).toString('hex')
    const hash = `${saltHex}:${referenceScrypt('\uFB01ne', saltHex).toString('hex')}`
    expect(await verifyPassword(hash, 'fine')).toBe(true)
  })

  it('does not treat the salt as the bytes it spells', async () => {
    const salt = randomBytes(16)
    const hash = `${salt.toString('hex')}:${referenceScrypt('pw', salt).toString('hex')}`
    expect(await verifyPassword(hash, 'pw')).toBe(false)
  })
})

describe('the node:crypto and pure-JavaScript backends agree', () => {
  it('uses node:crypto on Node', async () => {
    expect(await detectScryptBackend()).toBe('node')
    await hashPassword('x')
    expect(derivations.mock.calls[0]?.[3]).toBeUndefined()
  })

  it('a hash made by @noble/hashes verifies with node:crypto', async () => {
    const hash = await hashPassword('cross-check', { backend: 'noble' })
    expect(await verifyPassword(hash, 'cross-check', { backend: 'node' })).toBe(true)
    expect(await verifyPassword(hash, 'cross-chekc', { backend: 'node' })).toBe(false)
  })

  it('a hash made by node:crypto verifies with @noble/hashes', async () => {
    const hash = await hashPassword('cross-check', { backend: 'node' })
    expect(await verifyPassword(hash, 'cross-check', { backend: 'noble' })).toBe(true)
    expect(await verifyPassword(hash, 'cross-chekc', { backend: 'noble' })).toBe(false)
  })
})
