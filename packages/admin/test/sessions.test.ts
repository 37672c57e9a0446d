import { memoryStorage } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { adminAuth, cast, post, sessionFor, sessionRows, signIn } from './fixtures.js'

describe('POST /admin/list-user-sessions', () => {
  it("lists the user's unexpired sessions by their handles, newest first", async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    auth.clock.advance(1000)
    const later = await signIn(auth, { email: alice.email })
    const reply = await post(auth, 'list-user-sessions', root, { userId: alice.id })
    expect(reply.status).toBe(200)
    const rows = await sessionRows(auth, alice.id)
    expect(reply.body.sessions.map((s: { token: string }) => s.token)).toEqual(
      [...rows].sort((a, b) => b.expiresAt.getTime() - a.expiresAt.getTime()).map((row) => row.token),
    )
    // A handle is the stored hash, never a usable session token.
    expect(later.body.token).not.toBe(reply.body.sessions[0].token)
  })

  it('refuses a user, the anonymous caller and an unknown user', async () => {
    const auth = adminAuth()
    const { root, alice, bob } = await cast(auth)
    expect(await post(auth, 'list-user-sessions', alice, { userId: bob.id })).toMatchObject({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS', message: "You are not allowed to list users' sessions" },
    })
    expect((await post(auth, 'list-user-sessions', null, { userId: bob.id })).status).toBe(401)
    expect((await post(auth, 'list-user-sessions', root, { userId: 'nobody' })).status).toBe(404)
    expect((await post(auth, 'list-user-sessions', root, {})).status).toBe(400)
  })
})

describe('POST /admin/revoke-user-session and /admin/revoke-user-sessions', () => {
  it('revokes one session by its handle, in secondary storage too', async () => {
    const storage = memoryStorage()
    const auth = adminAuth({}, { secondaryStorage: storage })
    const { root, alice } = await cast(auth)
    const other = await signIn(auth, { email: alice.email })
    expect((await sessionFor(auth, alice.cookie))?.user).toMatchObject({ id: alice.id })
    const listed = await post(auth, 'list-user-sessions', root, { userId: alice.id })
    const first = listed.body.sessions[0] as { token: string }
    expect(await post(auth, 'revoke-user-session', root, { sessionToken: first.token })).toMatchObject({ status: 200, body: { success: true } })
    expect((await sessionRows(auth, alice.id)).map((row) => row.token)).toEqual([listed.body.sessions[1].token])
    const alive = [await sessionFor(auth, alice.cookie), await sessionFor(auth, other.cookie)].filter((s) => s !== null)
    expect(alive).toHaveLength(1)
    expect((await post(auth, 'revoke-user-session', root, { sessionToken: first.token })).status).toBe(404)
  })

  it('revokes every session of a user', async () => {
    const auth = adminAuth()
    const { root, alice, bob } = await cast(auth)
    await signIn(auth, { email: alice.email })
    expect(await post(auth, 'revoke-user-sessions', root, { userId: alice.id })).toMatchObject({ status: 200, body: { success: true, revoked: 2 } })
    expect(await sessionRows(auth, alice.id)).toEqual([])
    expect(await sessionRows(auth, bob.id)).toHaveLength(1)
  })

  it('refuses a user, the anonymous caller, unknown sessions and users', async () => {
    const auth = adminAuth()
    const { root, alice, bob } = await cast(auth)
    const [bobSession] = await sessionRows(auth, bob.id)
    const denied = { code: 'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS', message: "You are not allowed to revoke users' sessions" }
    expect(await post(auth, 'revoke-user-session', alice, { sessionToken: bobSession?.token })).toMatchObject({ status: 403, body: denied })
    expect(await post(auth, 'revoke-user-sessions', alice, { userId: bob.id })).toMatchObject({ status: 403, body: denied })
    expect((await post(auth, 'revoke-user-session', null, { sessionToken: bobSession?.token })).status).toBe(401)
    expect((await post(auth, 'revoke-user-sessions', null, { userId: bob.id })).status).toBe(401)
    expect(await post(auth, 'revoke-user-session', root, { sessionToken: 'nothing' })).toMatchObject({
      status: 404,
      body: { code: 'SESSION_NOT_FOUND', message: 'Session not found' },
    })
    expect((await post(auth, 'revoke-user-sessions', root, { userId: 'nobody' })).status).toBe(404)
    expect(await sessionRows(auth, bob.id)).toHaveLength(1)
  })
})
