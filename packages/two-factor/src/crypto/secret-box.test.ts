/**
 * The TOTP secret at rest: sealed under the purpose key of the newest auth
 * secret, opened under any configured one (rotation), bound to its user,
 * and refused when tampered with.
 */
import { describe, expect, it } from 'vitest'
import { createSecrets } from '../../../core/src/crypto/keys.js'
import { openSecret, sealSecret } from './secret-box.js'

const OLD = 'old-secret-0123456789-abcdefghijklmnopq'
const NEW = 'new-secret-0123456789-abcdefghijklmnopq'
const secret = new Uint8Array(Array.from({ length: 20 }, (_, index) => index + 1))
const iv = new Uint8Array(12).fill(7)

describe('secret box', () => {
  it('round-trips, and the sealed text holds no plaintext', async () => {
    const secrets = createSecrets(NEW)
    const sealed = await sealSecret(secrets, 'user-1', secret, iv)
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64url'))
    expect(await openSecret(secrets, 'user-1', sealed)).toEqual(secret)
  })

  it('is bound to its user: the same text for another user does not open', async () => {
    const secrets = createSecrets(NEW)
    const sealed = await sealSecret(secrets, 'user-1', secret, iv)
    expect(await openSecret(secrets, 'user-2', sealed)).toBeNull()
  })

  it('opens under an older secret of the rotation list, not under an unrelated one', async () => {
    const sealed = await sealSecret(createSecrets(OLD), 'user-1', secret, iv)
    expect(await openSecret(createSecrets([NEW, OLD]), 'user-1', sealed)).toEqual(secret)
    expect(await openSecret(createSecrets(NEW), 'user-1', sealed)).toBeNull()
  })

  it('refuses tampered or malformed text', async () => {
    const secrets = createSecrets(NEW)
    const sealed = await sealSecret(secrets, 'user-1', secret, iv)
    const flipped = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`
    expect(await openSecret(secrets, 'user-1', flipped)).toBeNull()
    expect(await openSecret(secrets, 'user-1', 'v2.abc.def')).toBeNull()
    expect(await openSecret(secrets, 'user-1', 'not sealed')).toBeNull()
  })
})
