import { describe, expect, it } from 'vitest'
import { createSecrets } from '../crypto/keys.js'
import { decryptPrivateKey, encryptPrivateKey } from './encryption.js'

const OLD = 'old-secret-0123456789-abcdefghijklmnopqrstuv'
const NEW = 'new-secret-0123456789-abcdefghijklmnopqrstuv'
const PLAINTEXT = JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: 'public-part', d: 'private-part' })

describe('private key encryption', () => {
  it('seals with a fresh IV each time and opens with the same secret and kid', async () => {
    const secrets = createSecrets(NEW)
    const first = await encryptPrivateKey(secrets, 'kid-1', PLAINTEXT)
    const second = await encryptPrivateKey(secrets, 'kid-1', PLAINTEXT)
    expect(first).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/)
    expect(first).not.toBe(second)
    expect(first).not.toContain('private-part')
    expect(await decryptPrivateKey(secrets, 'kid-1', first)).toEqual({ ok: true, plaintext: PLAINTEXT, staleSecret: false })
  })

  it('refuses another secret, another kid and altered bytes', async () => {
    const sealed = await encryptPrivateKey(createSecrets(NEW), 'kid-1', PLAINTEXT)
    expect(await decryptPrivateKey(createSecrets(OLD), 'kid-1', sealed)).toEqual({ ok: false })
    expect(await decryptPrivateKey(createSecrets(NEW), 'kid-2', sealed)).toEqual({ ok: false })
    const [version, iv, body] = sealed.split('.') as [string, string, string]
    const flipped = `${body.slice(0, 10)}${body[10] === 'A' ? 'B' : 'A'}${body.slice(11)}`
    expect(await decryptPrivateKey(createSecrets(NEW), 'kid-1', `${version}.${iv}.${flipped}`)).toEqual({ ok: false })
    expect(await decryptPrivateKey(createSecrets(NEW), 'kid-1', `v2.${iv}.${body}`)).toEqual({ ok: false })
    expect(await decryptPrivateKey(createSecrets(NEW), 'kid-1', 'not-sealed')).toEqual({ ok: false })
  })

  it('opens rows sealed under an older secret and says so; seals under the newest', async () => {
    const sealedOld = await encryptPrivateKey(createSecrets(OLD), 'kid-1', PLAINTEXT)
    const rotated = createSecrets([NEW, OLD])
    expect(await decryptPrivateKey(rotated, 'kid-1', sealedOld)).toEqual({ ok: true, plaintext: PLAINTEXT, staleSecret: true })
    const sealedNew = await encryptPrivateKey(rotated, 'kid-1', PLAINTEXT)
    expect(await decryptPrivateKey(createSecrets(NEW), 'kid-1', sealedNew)).toMatchObject({ ok: true, staleSecret: false })
    expect(await decryptPrivateKey(createSecrets(OLD), 'kid-1', sealedNew)).toEqual({ ok: false })
  })
})
