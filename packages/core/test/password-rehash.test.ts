/**
 * Transparent rehash at sign-in (docs/passwords.md#raising-the-cost): a
 * stored hash weaker than `emailAndPassword.password.scrypt` (or the
 * defaults) is made again, in the same `scrypt$N$r$p$salt$key` format,
 * once the password has been verified; never over a password that changed
 * in the meantime.
 */
import { describe, expect, it } from 'vitest'
import type { Row } from '../src/db/adapter.js'
import { hashPassword, verifyPassword } from '../src/password/scrypt.js'
import { parsePasswordHash } from '../src/password/scrypt-format.js'
import type { EmailAndPasswordOptions } from '../src/types/options.js'
import { accountAuth, PASSWORD, signIn, signUp } from './accounts.js'

type Auth = ReturnType<typeof accountAuth>

const LOW = { N: 1024, r: 8, p: 1, keyLength: 64 }

async function storedHash(auth: Auth): Promise<string> {
  const { db } = await auth.$context
  const account = await db.findOne<Row & { password: string }>({ model: 'account', where: { field: 'providerId', value: 'credential' } })
  return account?.password ?? ''
}

async function storeHash(auth: Auth, password: string): Promise<void> {
  const { db } = await auth.$context
  await db.update({ model: 'account', where: { field: 'providerId', value: 'credential' }, update: { password } })
}

const paramsOf = (hash: string) => parsePasswordHash(hash)?.params

describe('rehash at sign-in', () => {
  it('a hash made with lower parameters than the defaults is rehashed with the defaults, in the same format', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const low = await hashPassword(PASSWORD, { params: LOW })
    await storeHash(auth, low)

    expect((await signIn(auth, { email: 'ada@example.com' })).response.status).toBe(200)
    const rehashed = await storedHash(auth)
    expect(rehashed).not.toBe(low)
    expect(rehashed).toMatch(/^scrypt\$16384\$16\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/)
    expect(await verifyPassword(rehashed, PASSWORD)).toBe(true)
    // Done once: the next sign-in finds nothing to raise.
    expect((await signIn(auth, { email: 'ada@example.com' })).response.status).toBe(200)
    expect(await storedHash(auth)).toBe(rehashed)
  })

  it('with password.scrypt raised, a default hash becomes one of the configured parameters; a wrong password changes nothing', async () => {
    const auth = accountAuth({ emailAndPassword: { enabled: true, password: { scrypt: { N: 32768, r: 8 } } } })
    await signUp(auth, { email: 'ada@example.com' })
    // New hashes are made with the configured parameters at once.
    expect(paramsOf(await storedHash(auth))).toEqual({ N: 32768, r: 8, p: 1, keyLength: 64 })
    const standard = await hashPassword(PASSWORD)
    await storeHash(auth, standard)

    expect((await signIn(auth, { email: 'ada@example.com', password: 'not the password' })).response.status).toBe(401)
    expect(await storedHash(auth)).toBe(standard)

    expect((await signIn(auth, { email: 'ada@example.com' })).response.status).toBe(200)
    const rehashed = await storedHash(auth)
    expect(rehashed.startsWith('scrypt$32768$8$1$')).toBe(true)
    expect((await signIn(auth, { email: 'ada@example.com' })).response.status).toBe(200)
  })

  it('a hash at the configured parameters, or in the hex format at the defaults, is left alone', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const made = await storedHash(auth)
    expect((await signIn(auth, { email: 'ada@example.com' })).response.status).toBe(200)
    expect(await storedHash(auth)).toBe(made)
    // The other libraries' format (docs/passwords.md#migrating-from-another-librarys-hex-format): N=16384, r=16, p=1.
    const hex =
      '7d9a3b1c5e2f4a6b8c0d1e2f3a4b5c6d:bd8c1b8d6e2ff3f4cde6a64d0d2d8f14cf90c4a9d2f3f0b6ec4f1fbd9e8a0c94d2a7e0a7a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1'
    expect(paramsOf(hex)).toEqual({ N: 16384, r: 16, p: 1, keyLength: 64 })
    const { passwords } = await auth.$context
    expect(passwords.needsRehash(hex)).toBe(false)
    expect(passwords.needsRehash(await hashPassword(PASSWORD, { params: LOW }))).toBe(true)
  })

  it('a password changed while the sign-in verified the old one is not overwritten by the rehash', async () => {
    let during: (() => Promise<void>) | undefined
    const auth = accountAuth({
      emailAndPassword: {
        enabled: true,
        password: {
          // The default scrypt verification, with a password change committed while it runs.
          verify: async ({ hash, password }) => {
            const valid = await verifyPassword(hash, password)
            const change = during
            during = undefined
            await change?.()
            return valid
          },
        },
      },
    })
    await signUp(auth, { email: 'ada@example.com' })
    await storeHash(auth, await hashPassword(PASSWORD, { params: LOW }))
    const changed = await hashPassword('a brand new passphrase')
    during = () => storeHash(auth, changed)

    await signIn(auth, { email: 'ada@example.com' })
    expect(during).toBeUndefined()
    expect(await storedHash(auth)).toBe(changed)
  })

  it('refuses parameters no stored hash may have, and scrypt beside a replaced hash, at start-up', async () => {
    const start = async (password: EmailAndPasswordOptions['password']) => {
      const auth = accountAuth({ emailAndPassword: { enabled: true, password } })
      await auth.$context
    }
    await expect(start({ scrypt: { N: 30000 } })).rejects.toThrow(/emailAndPassword\.password\.scrypt/)
    await expect(start({ scrypt: { N: 2 ** 21 } })).rejects.toThrow(RangeError)
    await expect(start({ scrypt: { r: 128 } })).rejects.toThrow(RangeError)
    await expect(start({ scrypt: { N: 32768 }, hash: async () => 'x' })).rejects.toThrow(TypeError)
    await expect(start({ scrypt: {} })).resolves.toBeUndefined()
  })
})
