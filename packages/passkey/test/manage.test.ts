/**
 * Listing, renaming and deleting passkeys through `auth.handler`: only the
 * caller's own, another user's id answered exactly like an id that does not
 * exist, never a public key or user handle in an answer. Also: two
 * sign-ins racing with the same counter value, the plugin's rate limits,
 * and that loading the plugin does not load @simplewebauthn/server.
 */
import { describe, expect, it } from 'vitest'
import { authenticatorFor, call, newUser, passkeyAuth, registerPasskey } from './fixtures.js'

async function twoUsersWithPasskeys() {
  const auth = passkeyAuth()
  const ada = await newUser(auth)
  const bob = await newUser(auth, 'bob@example.com')
  const adaKey = (await registerPasskey(auth, authenticatorFor(), ada.cookie, { name: 'Phone' })).verified.body
  const adaKey2 = (await registerPasskey(auth, authenticatorFor({ algorithm: 'EdDSA' }), ada.cookie)).verified.body
  const bobKey = (await registerPasskey(auth, authenticatorFor(), bob.cookie, { name: 'Bob key' })).verified.body
  return { auth, ada, bob, adaKey, adaKey2, bobKey }
}

describe('GET /passkey/list-user-passkeys', () => {
  it('lists the caller\'s passkeys only, oldest first, without keys or handles', async () => {
    const { auth, ada, adaKey, adaKey2 } = await twoUsersWithPasskeys()
    const answer = await call(auth, '/passkey/list-user-passkeys', ada.cookie)
    expect(answer.status).toBe(200)
    expect(answer.body.map((entry: { id: string }) => entry.id)).toEqual([adaKey.id, adaKey2.id])
    expect(answer.body[0]).toEqual(adaKey)
    expect(Object.keys(answer.body[0])).not.toContain('publicKey')
    expect(Object.keys(answer.body[0])).not.toContain('userHandle')
    expect(answer.body[1].name).toBeNull()
  })

  it('needs a session', async () => {
    const auth = passkeyAuth()
    expect(await call(auth, '/passkey/list-user-passkeys', '')).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  })
})

describe('POST /passkey/update-passkey', () => {
  it('renames the caller\'s passkey', async () => {
    const { auth, ada, adaKey } = await twoUsersWithPasskeys()
    const answer = await call(auth, '/passkey/update-passkey', ada.cookie, { id: adaKey.id, name: '  Work phone ' })
    expect(answer).toMatchObject({ status: 200, body: { passkey: { ...adaKey, name: 'Work phone' } } })
  })

  it('answers another user\'s passkey exactly like a missing one, and changes nothing', async () => {
    const { auth, ada, bob, bobKey } = await twoUsersWithPasskeys()
    const foreign = await call(auth, '/passkey/update-passkey', ada.cookie, { id: bobKey.id, name: 'Mine now' })
    const missing = await call(auth, '/passkey/update-passkey', ada.cookie, { id: 'no-such-passkey', name: 'Mine now' })
    expect(foreign).toMatchObject({ status: 404, body: { code: 'PASSKEY_NOT_FOUND', message: 'Passkey not found' } })
    expect(foreign.body).toEqual(missing.body)
    const bobs = await call(auth, '/passkey/list-user-passkeys', bob.cookie)
    expect(bobs.body[0].name).toBe('Bob key')
  })

  it('refuses an empty name and needs a session', async () => {
    const { auth, ada, adaKey } = await twoUsersWithPasskeys()
    expect((await call(auth, '/passkey/update-passkey', ada.cookie, { id: adaKey.id, name: '   ' })).status).toBe(400)
    expect((await call(auth, '/passkey/update-passkey', '', { id: adaKey.id, name: 'x' })).status).toBe(401)
  })
})

describe('POST /passkey/delete-passkey', () => {
  it('deletes the caller\'s passkey; another user\'s id is "Passkey not found" and stays', async () => {
    const { auth, ada, bob, adaKey, bobKey } = await twoUsersWithPasskeys()
    const foreign = await call(auth, '/passkey/delete-passkey', ada.cookie, { id: bobKey.id })
    expect(foreign).toMatchObject({ status: 404, body: { code: 'PASSKEY_NOT_FOUND', message: 'Passkey not found' } })
    expect((await call(auth, '/passkey/list-user-passkeys', bob.cookie)).body).toHaveLength(1)
    expect(await call(auth, '/passkey/delete-passkey', ada.cookie, { id: adaKey.id })).toMatchObject({ status: 200, body: { status: true } })
    expect((await call(auth, '/passkey/list-user-passkeys', ada.cookie)).body).toHaveLength(1)
    expect(await call(auth, '/passkey/delete-passkey', ada.cookie, { id: adaKey.id })).toMatchObject({ status: 404 })
  })

  it('deleting the user deletes their passkeys', async () => {
    const { auth, ada } = await twoUsersWithPasskeys()
    const { db } = await auth.$context
    await db.delete({ model: 'user', where: { field: 'id', value: ada.userId } })
    expect(await db.count({ model: 'passkey', where: { field: 'userId', value: ada.userId } })).toBe(0)
    expect(await db.count({ model: 'passkey' })).toBe(1)
  })
})

describe('racing sign-ins with one counter value', () => {
  it('two assertions reporting the same next counter, each with its own challenge: one session', async () => {
    const auth = passkeyAuth()
    const authenticator = authenticatorFor()
    const ada = await newUser(auth)
    await registerPasskey(auth, authenticator, ada.cookie)
    const first = await call(auth, '/passkey/generate-authenticate-options', '')
    const second = await call(auth, '/passkey/generate-authenticate-options', '')
    const answers = await Promise.all(
      [first, second].map((options) =>
        call(auth, '/passkey/verify-authentication', options.cookie, { response: authenticator.authenticate(options.body, { counter: 1 }) }),
      ),
    )
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401])
  })
})

describe('rate limits', () => {
  it('limits the sign-in routes per client', async () => {
    const auth = passkeyAuth({ rateLimit: { window: 60, max: 2 } }, { rateLimit: { enabled: true } })
    const from = { 'x-forwarded-for': '203.0.113.7' }
    const statuses: number[] = []
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await auth.handler(new Request('http://localhost:3000/api/auth/passkey/generate-authenticate-options', { headers: from }))
      statuses.push(response.status)
    }
    expect(statuses).toEqual([200, 200, 429])
  })
})
