import { memoryStorage, type GatehousePlugin } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { accountAuth, authed, signUp } from '../../core/test/accounts.js'
import { admin } from '../src/plugin.js'
import { adminAuth, cast, flakyStorage, newUser, post, sessionFor, sessionRows, signIn } from './fixtures.js'

const banned = { code: 'BANNED_USER', message: 'You have been banned from this application' }

describe('POST /admin/ban-user', () => {
  it('bans with a reason, revokes every session, and refuses sign-in with 403', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    const second = await signIn(auth, { email: alice.email })
    expect(await sessionRows(auth, alice.id)).toHaveLength(2)

    const reply = await post(auth, 'ban-user', root, { userId: alice.id, banReason: 'spam' })
    expect(reply).toMatchObject({ status: 200, body: { user: { id: alice.id, banned: true, banReason: 'spam', banExpires: null } } })
    expect(await sessionRows(auth, alice.id)).toEqual([])
    expect(await sessionFor(auth, alice.cookie)).toBeNull()
    expect(await sessionFor(auth, second.cookie)).toBeNull()

    const refused = await signIn(auth, { email: alice.email })
    expect(refused.response.status).toBe(403)
    expect(refused.body).toEqual(banned)
    expect(refused.response.headers.getSetCookie()).toEqual([])
    expect(await sessionRows(auth, alice.id)).toEqual([])
    // A wrong password still answers as for anyone: the ban is told only to the account's owner.
    expect((await signIn(auth, { email: alice.email, password: 'wrong password' })).response.status).toBe(401)
  })

  it('ends what other plugins issued to the user too (OAuth grants): they hear onCredentialsRevoked, reason banned', async () => {
    const heard: string[] = []
    const recorder: GatehousePlugin = {
      id: 'recorder',
      onCredentialsRevoked: (event) => {
        heard.push(`${event.reason}:${event.userId}`)
      },
    }
    const auth = accountAuth({ plugins: [admin(), recorder] })
    const root = await signUp(auth, { email: 'root@example.com' })
    const alice = await signUp(auth, { email: 'alice@example.com' })
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: root.body.user.id }, update: { role: 'admin' } })
    const reply = await auth.handler(authed('/api/auth/admin/ban-user', root.cookie, { json: { userId: alice.body.user.id } }))
    expect(reply.status).toBe(200)
    expect(heard).toEqual([`banned:${alice.body.user.id}`])
  })

  it('stores the default reason, and the configured message answers sign-in', async () => {
    const auth = adminAuth({ defaultBanReason: 'Terms of service', bannedUserMessage: 'Your account is suspended' })
    const { root, alice } = await cast(auth)
    expect((await post(auth, 'ban-user', root, { userId: alice.id })).body.user.banReason).toBe('Terms of service')
    expect((await signIn(auth, { email: alice.email })).body).toEqual({ code: 'BANNED_USER', message: 'Your account is suspended' })
  })

  it('refuses a session by any path, not only the password route (session creation is guarded)', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    await post(auth, 'ban-user', root, { userId: alice.id })
    const { createSession } = await import('@gatehouse/core')
    const context = await auth.$context
    const user = await context.db.findOne<{ id: string; name: string; email: string; emailVerified: boolean; image: null; createdAt: Date; updatedAt: Date }>({
      model: 'user',
      where: { field: 'id', value: alice.id },
    })
    await expect(createSession(context, user as never)).rejects.toMatchObject({ status: 403, code: 'BANNED_USER' })
    expect(await sessionRows(auth, alice.id)).toEqual([])
  })

  it('an expired ban lifts itself at the next sign-in', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    const reply = await post(auth, 'ban-user', root, { userId: alice.id, banExpiresIn: 60 })
    expect(new Date(reply.body.user.banExpires).getTime()).toBe(auth.clock.now().getTime() + 60_000)
    auth.clock.advance(59_000)
    expect((await signIn(auth, { email: alice.email })).response.status).toBe(403)
    auth.clock.advance(1_000)
    expect((await signIn(auth, { email: alice.email })).response.status).toBe(200)
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: alice.id } })).toMatchObject({ banned: false, banReason: null, banExpires: null })
  })

  it('revokes sessions mirrored in secondary storage too', async () => {
    const storage = memoryStorage()
    const auth = adminAuth({}, { secondaryStorage: storage })
    const { root, alice } = await cast(auth)
    expect((await sessionFor(auth, alice.cookie))?.user).toMatchObject({ id: alice.id })
    await post(auth, 'ban-user', root, { userId: alice.id })
    expect(await sessionFor(auth, alice.cookie)).toBeNull()
  })

  it('with secondary storage down, answers 503 and bans nothing: never banned with sessions alive; retried, it holds', async () => {
    const flaky = flakyStorage()
    const auth = adminAuth({}, { secondaryStorage: flaky.storage })
    const { root, alice } = await cast(auth)
    const { db } = await auth.$context
    flaky.setDown(true)
    expect((await post(auth, 'ban-user', root, { userId: alice.id, banReason: 'spam' })).status).toBe(503)
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: alice.id } })).toMatchObject({ banned: false, banReason: null })
    expect(await sessionRows(auth, alice.id)).toHaveLength(1)
    flaky.setDown(false)
    expect((await sessionFor(auth, alice.cookie))?.user).toMatchObject({ id: alice.id, banned: false })
    expect((await post(auth, 'ban-user', root, { userId: alice.id, banReason: 'spam' })).status).toBe(200)
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: alice.id } })).toMatchObject({ banned: true, banReason: 'spam' })
    expect(await sessionRows(auth, alice.id)).toEqual([])
    expect(await sessionFor(auth, alice.cookie)).toBeNull()
  })

  it("a plugin failing to end its grants leaves the user unbanned, the ban's error answered", async () => {
    const failing: GatehousePlugin = {
      id: 'failing',
      onCredentialsRevoked: () => {
        throw new Error('grant store unreachable')
      },
    }
    const auth = accountAuth({ plugins: [admin(), failing] })
    const root = await signUp(auth, { email: 'root@example.com' })
    const alice = await signUp(auth, { email: 'alice@example.com' })
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: root.body.user.id }, update: { role: 'admin' } })
    const reply = await auth.handler(authed('/api/auth/admin/ban-user', root.cookie, { json: { userId: alice.body.user.id } }))
    expect(reply.status).toBe(500)
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: alice.body.user.id } })).toMatchObject({ banned: false })
    expect(await db.count({ model: 'session', where: { field: 'userId', value: alice.body.user.id } })).toBe(1)
  })

  it('a cookie-cached session fails at its next database check', async () => {
    const auth = adminAuth({}, { session: { cookieCache: { enabled: true, maxAge: 60 } } })
    const { root, alice } = await cast(auth)
    await post(auth, 'ban-user', root, { userId: alice.id })
    // Within the cache's minute the signed copy still answers get-session ...
    expect((await sessionFor(auth, alice.cookie))?.user).toMatchObject({ id: alice.id })
    // ... but a route that reads the store refuses it, and after the minute nothing accepts it.
    const { authed } = await import('../../core/test/accounts.js')
    expect((await auth.handler(authed('/api/auth/revoke-sessions', alice.cookie, { json: {} }))).status).toBe(401)
    auth.clock.advance(61_000)
    expect(await sessionFor(auth, alice.cookie)).toBeNull()
  })

  it("an admin's revoked session stops working at once, cookie cache or not", async () => {
    const auth = adminAuth({}, { session: { cookieCache: { enabled: true, maxAge: 300 } } })
    const { root, alice } = await cast(auth)
    const other = await newUser(auth, { role: 'admin' })
    expect((await post(auth, 'revoke-user-sessions', other, { userId: root.id })).status).toBe(200)
    expect((await post(auth, 'ban-user', root, { userId: alice.id })).status).toBe(401)
    expect((await sessionRows(auth, alice.id))).toHaveLength(1)
  })

  it('refuses banning yourself, a user, the anonymous caller, an unknown user and a bad expiry', async () => {
    const auth = adminAuth()
    const { root, alice, bob } = await cast(auth)
    expect(await post(auth, 'ban-user', root, { userId: root.id })).toMatchObject({ status: 400, body: { code: 'YOU_CANNOT_BAN_YOURSELF', message: 'You cannot ban yourself' } })
    expect(await post(auth, 'ban-user', alice, { userId: bob.id })).toMatchObject({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS', message: 'You are not allowed to ban users' },
    })
    expect((await post(auth, 'ban-user', null, { userId: bob.id })).status).toBe(401)
    expect((await post(auth, 'ban-user', root, { userId: 'nobody' })).status).toBe(404)
    expect((await post(auth, 'ban-user', root, { userId: bob.id, banExpiresIn: -5 })).status).toBe(400)
    expect((await post(auth, 'ban-user', root, { userId: bob.id, banExpiresIn: '60' })).status).toBe(400)
    expect(await sessionRows(auth, bob.id)).toHaveLength(1)
  })
})

describe('POST /admin/unban-user', () => {
  it('lifts the ban; the user signs in again', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    await post(auth, 'ban-user', root, { userId: alice.id, banReason: 'spam', banExpiresIn: 3600 })
    expect(await post(auth, 'unban-user', root, { userId: alice.id })).toMatchObject({
      status: 200,
      body: { user: { banned: false, banReason: null, banExpires: null } },
    })
    expect((await signIn(auth, { email: alice.email })).response.status).toBe(200)
  })

  it('refuses a user, the anonymous caller and an unknown user', async () => {
    const auth = adminAuth()
    const { root, alice, bob } = await cast(auth)
    await post(auth, 'ban-user', root, { userId: bob.id })
    expect(await post(auth, 'unban-user', alice, { userId: bob.id })).toMatchObject({ status: 403, body: { code: 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS' } })
    expect((await post(auth, 'unban-user', null, { userId: bob.id })).status).toBe(401)
    expect((await post(auth, 'unban-user', root, { userId: 'nobody' })).status).toBe(404)
    expect((await signIn(auth, { email: bob.email })).response.status).toBe(403)
  })
})
