import { describe, expect, it } from 'vitest'
import { createSecrets } from '../crypto/keys.js'
import { decryptToken, encryptToken } from './token-crypto.js'

const OLD = 'old-secret-0123456789-abcdefghijklmnop'
const NEW = 'new-secret-0123456789-abcdefghijklmnop'
const binding = { providerId: 'github', accountId: '42' }

describe('provider token encryption', () => {
  it('round-trips, with a fresh IV each time, and the stored form holds no trace of the token', async () => {
    const secrets = createSecrets(NEW)
    const first = await encryptToken(secrets, 'accessToken', binding, 'gho_secret_token')
    const second = await encryptToken(secrets, 'accessToken', binding, 'gho_secret_token')
    expect(first).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/)
    expect(first).not.toBe(second)
    expect(first).not.toContain('gho_secret_token')
    expect(await decryptToken(secrets, 'accessToken', binding, first)).toBe('gho_secret_token')
  })

  it('decrypts rows sealed under a rotated-out secret while it stays in the list; not once it is dropped', async () => {
    const sealed = await encryptToken(createSecrets(OLD), 'refreshToken', binding, 'ghr_refresh')
    expect(await decryptToken(createSecrets([NEW, OLD]), 'refreshToken', binding, sealed)).toBe('ghr_refresh')
    expect(await decryptToken(createSecrets(NEW), 'refreshToken', binding, sealed)).toBeNull()
  })

  it('refuses a tampered value, another column or account, plain text and garbage', async () => {
    const secrets = createSecrets(NEW)
    const sealed = await encryptToken(secrets, 'idToken', binding, 'header.payload.signature')
    const [version, iv, body] = sealed.split('.') as [string, string, string]
    const flipped = `${version}.${iv}.${body.slice(0, -2)}${body.at(-2) === 'A' ? 'B' : 'A'}${body.at(-1)}`
    expect(await decryptToken(secrets, 'idToken', binding, flipped)).toBeNull()
    expect(await decryptToken(secrets, 'accessToken', binding, sealed)).toBeNull()
    expect(await decryptToken(secrets, 'idToken', { providerId: 'github', accountId: '43' }, sealed)).toBeNull()
    expect(await decryptToken(secrets, 'idToken', { providerId: 'gitlab', accountId: '42' }, sealed)).toBeNull()
    for (const value of ['header.payload.signature', 'v1.x', 'v1.!!.??', `${sealed}.extra`, '', null]) {
      expect(await decryptToken(secrets, 'idToken', binding, value)).toBeNull()
    }
  })
})
