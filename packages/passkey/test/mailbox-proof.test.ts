/**
 * A first proof of the mailbox removes the passkeys registered before it
 * (docs/passkeys.md#security): someone who signed up with another person's
 * address and added a passkey must not keep that way in once the owner
 * proves the address (here by a password reset). A verified user's reset
 * keeps their passkeys.
 */
import { describe, expect, it } from 'vitest'
import { request } from '../../core/test/helpers.js'
import { authenticatorFor, BASE, newUser, passkeyAuth, registerPasskey, signInWithPasskey, type PasskeyAuth } from './fixtures.js'

async function resetByMail(auth: PasskeyAuth, email: string) {
  await auth.handler(request('/api/auth/request-password-reset', { json: { email }, headers: { origin: BASE } }))
  const token = auth.mailbox.last('reset-password')?.token ?? ''
  const reset = await auth.handler(request('/api/auth/reset-password', { json: { newPassword: 'the owner’s passphrase', token }, headers: { origin: BASE } }))
  expect(reset.status).toBe(200)
}

async function passkeys(auth: PasskeyAuth) {
  const { db } = await auth.$context
  return db.findMany({ model: 'passkey' })
}

describe('passkeys and the first proof of the mailbox', () => {
  it('a squatter’s passkey goes when the owner proves the address, and no longer signs in', async () => {
    const auth = passkeyAuth()
    const squatter = await newUser(auth, 'victim@example.com')
    const key = authenticatorFor()
    await registerPasskey(auth, key, squatter.cookie)
    expect(await passkeys(auth)).toHaveLength(1)

    await resetByMail(auth, 'victim@example.com')
    expect(await passkeys(auth)).toEqual([])
    expect((await signInWithPasskey(auth, key)).status).toBe(401)
  })

  it('a verified user’s reset keeps their passkeys', async () => {
    const auth = passkeyAuth()
    const owner = await newUser(auth, 'owner@example.com')
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: owner.userId }, update: { emailVerified: true } })
    const key = authenticatorFor()
    await registerPasskey(auth, key, owner.cookie)
    await resetByMail(auth, 'owner@example.com')
    expect(await passkeys(auth)).toHaveLength(1)
    expect((await signInWithPasskey(auth, key)).status).toBe(200)
  })
})
