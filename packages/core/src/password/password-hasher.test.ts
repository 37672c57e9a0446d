import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createTimingSafeVerifier, defaultPasswordHasher, type PasswordHasher } from './password-hasher.js'
import { DEFAULT_SCRYPT_PARAMS, parsePasswordHash } from './scrypt-format.js'
import { deriveScryptKey } from './scrypt-kdf.js'

// Count key derivations without changing them: the dummy path must really run scrypt.
vi.mock('./scrypt-kdf.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./scrypt-kdf.js')>()
  return { ...original, deriveScryptKey: vi.fn(original.deriveScryptKey) }
})
const derivations = vi.mocked(deriveScryptKey)

beforeEach(() => {
  derivations.mockClear()
})

/** The default hasher with every call recorded. */
function spiedHasher() {
  const hash = vi.fn((password: string) => defaultPasswordHasher.hash(password))
  const verify = vi.fn((args: { hash: string; password: string }) => defaultPasswordHasher.verify(args))
  const hasher: PasswordHasher = { hash, verify }
  return { hasher, hash, verify }
}

describe('defaultPasswordHasher', () => {
  it('hashes with scrypt and verifies through the object-argument interface', async () => {
    const stored = await defaultPasswordHasher.hash('s3cret-enough')
    expect(parsePasswordHash(stored)?.params).toEqual(DEFAULT_SCRYPT_PARAMS)
    expect(await defaultPasswordHasher.verify({ hash: stored, password: 's3cret-enough' })).toBe(true)
    expect(await defaultPasswordHasher.verify({ hash: stored, password: 's3cret-enougH' })).toBe(false)
  })

  it('returns false rather than throwing for a malformed hash', async () => {
    expect(await defaultPasswordHasher.verify({ hash: 'not a hash', password: 'x' })).toBe(false)
  })
})

describe('createTimingSafeVerifier', () => {
  it('verifies a stored hash with the wrapped hasher', async () => {
    const { hasher, verify } = spiedHasher()
    const stored = await defaultPasswordHasher.hash('right password')
    const verifier = createTimingSafeVerifier(hasher)
    expect(await verifier.verifyOrDummy(stored, 'right password')).toBe(true)
    expect(await verifier.verifyOrDummy(stored, 'wrong password')).toBe(false)
    expect(verify.mock.calls.map(([args]) => args)).toEqual([
      { hash: stored, password: 'right password' },
      { hash: stored, password: 'wrong password' },
    ])
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an empty string', ''],
  ])('with %s as the hash, runs a full verify against a dummy hash and returns false', async (_, missing) => {
    const { hasher, hash, verify } = spiedHasher()
    const verifier = createTimingSafeVerifier(hasher)

    expect(await verifier.verifyOrDummy(missing, 'any password')).toBe(false)

    expect(hash).toHaveBeenCalledTimes(1)
    expect(verify).toHaveBeenCalledTimes(1)
    const dummy = verify.mock.calls[0]?.[0].hash ?? ''
    // Made by the same hasher: a real hash with the real parameters, not a shortcut.
    expect(dummy).toBe(await hash.mock.results[0]?.value)
    expect(parsePasswordHash(dummy)?.params).toEqual(DEFAULT_SCRYPT_PARAMS)
    expect(verify.mock.calls[0]?.[0].password).toBe('any password')
    // One derivation made the dummy and one checked against it.
    expect(derivations).toHaveBeenCalledTimes(2)
  })

  it('costs a miss exactly one derivation once the dummy exists, like a wrong password', async () => {
    const { hasher, hash } = spiedHasher()
    const verifier = createTimingSafeVerifier(hasher)
    const stored = await defaultPasswordHasher.hash('real')
    await verifier.verifyOrDummy(null, 'first miss')
    derivations.mockClear()

    expect(await verifier.verifyOrDummy(null, 'unknown user')).toBe(false)
    expect(derivations).toHaveBeenCalledTimes(1)
    derivations.mockClear()
    expect(await verifier.verifyOrDummy(stored, 'wrong password')).toBe(false)
    expect(derivations).toHaveBeenCalledTimes(1)
    expect(hash).toHaveBeenCalledTimes(1)
  })

  it('makes the dummy once even when misses arrive together', async () => {
    const { hasher, hash, verify } = spiedHasher()
    const verifier = createTimingSafeVerifier(hasher)
    const results = await Promise.all([1, 2, 3].map((n) => verifier.verifyOrDummy(undefined, `guess ${n}`)))
    expect(results).toEqual([false, false, false])
    expect(hash).toHaveBeenCalledTimes(1)
    expect(verify).toHaveBeenCalledTimes(3)
  })

  it('prepare() makes the dummy up front, so the first miss costs one derivation', async () => {
    const { hasher, hash } = spiedHasher()
    const verifier = createTimingSafeVerifier(hasher)
    await verifier.prepare()
    expect(hash).toHaveBeenCalledTimes(1)
    derivations.mockClear()

    expect(await verifier.verifyOrDummy(null, 'first miss')).toBe(false)
    expect(hash).toHaveBeenCalledTimes(1)
    expect(derivations).toHaveBeenCalledTimes(1)
  })

  it('returns false even if the dummy verify says true', async () => {
    const alwaysTrue: PasswordHasher = { hash: async () => 'dummy', verify: async () => true }
    expect(await createTimingSafeVerifier(alwaysTrue).verifyOrDummy(null, 'x')).toBe(false)
  })

  it('uses a replaced hasher for the dummy too, so its cost matches that hasher', async () => {
    const hash = vi.fn(async (password: string) => `custom:${password.length}`)
    const verify = vi.fn(async () => false)
    const verifier = createTimingSafeVerifier({ hash, verify })
    await verifier.verifyOrDummy(undefined, 'pw')
    expect(verify).toHaveBeenCalledWith({ hash: 'custom:32', password: 'pw' })
    expect(derivations).not.toHaveBeenCalled()
  })

  it('does not cache a failed dummy hash: the next miss tries again', async () => {
    const hash = vi
      .fn<(password: string) => Promise<string>>()
      .mockRejectedValueOnce(new Error('hasher unavailable'))
      .mockResolvedValue('dummy')
    const verify = vi.fn(async () => false)
    const verifier = createTimingSafeVerifier({ hash, verify })

    await expect(verifier.verifyOrDummy(null, 'pw')).rejects.toThrow('hasher unavailable')
    expect(await verifier.verifyOrDummy(null, 'pw')).toBe(false)
    expect(hash).toHaveBeenCalledTimes(2)
    expect(verify).toHaveBeenCalledTimes(1)
  })
})

describe('createTimingSafeVerifier with the default hasher', () => {
  it('has its dummy without a derivation, and a miss still costs one full default-parameter derivation', async () => {
    const verifier = createTimingSafeVerifier(defaultPasswordHasher)
    await verifier.prepare()
    expect(derivations).not.toHaveBeenCalled()

    expect(await verifier.verifyOrDummy(null, 'unknown user')).toBe(false)
    expect(derivations).toHaveBeenCalledTimes(1)
    // The same work as a wrong password against a stored hash: the default N, r, p and key length.
    const [, salt, params] = derivations.mock.calls[0] ?? []
    expect(params).toEqual(DEFAULT_SCRYPT_PARAMS)
    expect(salt).toHaveLength(16)
  })

  it('answers false for every password, whatever the dummy was made from', async () => {
    const verifier = createTimingSafeVerifier(defaultPasswordHasher)
    const results = await Promise.all(['', 'password', 'correct horse battery staple'].map((guess) => verifier.verifyOrDummy(undefined, guess)))
    expect(results).toEqual([false, false, false])
    expect(derivations).toHaveBeenCalledTimes(3)
  })
})
