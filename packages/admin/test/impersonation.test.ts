import { memoryStorage } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { adminAuth, cast, newUser, post, sessionFor, sessionRows } from './fixtures.js'

const HOUR = 3600_000

describe('POST /admin/impersonate-user and /admin/stop-impersonating', () => {
  it('signs the admin in as the user for an hour, then restores the admin session', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    const now = auth.clock.now().getTime()
    const reply = await post(auth, 'impersonate-user', root, { userId: alice.id })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ user: { id: alice.id }, session: { userId: alice.id, impersonatedBy: root.id } })
    expect(new Date(reply.body.session.expiresAt).getTime()).toBe(now + HOUR)
    const asAlice = await sessionFor(auth, reply.cookie)
    expect(asAlice).toMatchObject({ user: { id: alice.id }, session: { impersonatedBy: root.id } })
    // The token cookie lasts as long as the impersonation, not the usual week.
    expect(reply.response.headers.getSetCookie().find((line) => line.includes('session_token='))).toMatch(/Max-Age=3600/)

    const rows = await sessionRows(auth, alice.id)
    expect(rows.filter((row) => row.impersonatedBy === root.id)).toHaveLength(1)
    expect(rows.filter((row) => row.impersonatedBy === null)).toHaveLength(1)

    const back = await post(auth, 'stop-impersonating', reply.cookie)
    expect(back).toMatchObject({ status: 200, body: { user: { id: root.id }, session: { userId: root.id } } })
    expect((await sessionFor(auth, back.cookie))?.user).toMatchObject({ id: root.id })
    expect(back.cookie).not.toContain('admin_session')
    expect((await sessionRows(auth, alice.id)).map((row) => row.impersonatedBy)).toEqual([null])
    // The admin's own session was kept, never re-created.
    expect(await sessionRows(auth, root.id)).toHaveLength(1)
  })

  it('the impersonation session ends after its hour', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    const reply = await post(auth, 'impersonate-user', root, { userId: alice.id })
    auth.clock.advance(HOUR - 1000)
    expect((await sessionFor(auth, reply.cookie))?.user).toMatchObject({ id: alice.id })
    auth.clock.advance(1000)
    expect(await sessionFor(auth, reply.cookie)).toBeNull()
  })

  it('never impersonates an admin unless allowed, nor nests impersonations', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    const other = await newUser(auth, { role: 'user,admin' })
    expect(await post(auth, 'impersonate-user', root, { userId: other.id })).toMatchObject({
      status: 403,
      body: { code: 'YOU_CANNOT_IMPERSONATE_ADMINS', message: 'You cannot impersonate admins' },
    })
    const allowed = adminAuth({ allowImpersonatingAdmins: true })
    const a = await newUser(allowed, { role: 'admin' })
    const b = await newUser(allowed, { role: 'admin' })
    const c = await newUser(allowed)
    const asB = await post(allowed, 'impersonate-user', a, { userId: b.id })
    expect(asB.status).toBe(200)
    expect(await post(allowed, 'impersonate-user', asB.cookie, { userId: c.id })).toMatchObject({ status: 400, body: { code: 'ALREADY_IMPERSONATING' } })
    expect(await sessionRows(auth, alice.id)).toHaveLength(1)
  })

  it('refuses a user, the anonymous caller, an unknown user and a banned user', async () => {
    const auth = adminAuth()
    const { root, alice, bob } = await cast(auth)
    expect(await post(auth, 'impersonate-user', alice, { userId: bob.id })).toMatchObject({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS', message: 'You are not allowed to impersonate users' },
    })
    expect((await post(auth, 'impersonate-user', null, { userId: bob.id })).status).toBe(401)
    expect((await post(auth, 'impersonate-user', root, { userId: 'nobody' })).status).toBe(404)
    await post(auth, 'ban-user', root, { userId: bob.id })
    const refused = await post(auth, 'impersonate-user', root, { userId: bob.id })
    expect(refused).toMatchObject({ status: 403, body: { code: 'BANNED_USER' } })
    expect(refused.cookie).toBe(root.cookie)
    expect(await sessionRows(auth, bob.id)).toEqual([])
  })

  it('stop-impersonating refuses an ordinary session and a caller without one', async () => {
    const auth = adminAuth()
    const { root } = await cast(auth)
    expect(await post(auth, 'stop-impersonating', root)).toMatchObject({
      status: 400,
      body: { code: 'NOT_IMPERSONATING', message: 'You are not impersonating anyone' },
    })
    expect((await post(auth, 'stop-impersonating', null)).status).toBe(400)
    expect((await sessionFor(auth, root.cookie))?.user).toMatchObject({ id: root.id })
  })

  it('signing out while impersonating forgets the admin session as well', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    const reply = await post(auth, 'impersonate-user', root, { userId: alice.id })
    const { authed, cookieHeader } = await import('../../core/test/accounts.js')
    const out = await auth.handler(authed('/api/auth/sign-out', reply.cookie, { json: {} }))
    const after = cookieHeader(out, reply.cookie)
    expect(after).toBe('')
    expect((await post(auth, 'stop-impersonating', after)).status).toBe(400)
  })

  it('a ban during an impersonation ends both the user sessions and the impersonation', async () => {
    const storage = memoryStorage()
    const auth = adminAuth({}, { secondaryStorage: storage })
    const { root, alice } = await cast(auth)
    const second = await newUser(auth, { role: 'admin' })
    const asAlice = await post(auth, 'impersonate-user', root, { userId: alice.id })
    expect(await sessionRows(auth, alice.id)).toHaveLength(2)

    expect((await post(auth, 'ban-user', second, { userId: alice.id })).status).toBe(200)
    expect(await sessionRows(auth, alice.id)).toEqual([])
    expect(await sessionFor(auth, asAlice.cookie)).toBeNull()
    expect(await sessionFor(auth, alice.cookie)).toBeNull()
    // The admin steps back into their own session.
    const back = await post(auth, 'stop-impersonating', asAlice.cookie)
    expect(back).toMatchObject({ status: 200, body: { user: { id: root.id } } })
    expect((await sessionFor(auth, back.cookie))?.user).toMatchObject({ id: root.id })

    // And may impersonate again from there.
    const bob = await newUser(auth)
    expect((await post(auth, 'impersonate-user', back.cookie, { userId: bob.id })).status).toBe(200)
  })

  it('a stale admin_session cookie beside an ordinary session does not block a new impersonation', async () => {
    const auth = adminAuth()
    const { root, alice, bob } = await cast(auth)
    const asAlice = await post(auth, 'impersonate-user', root, { userId: alice.id })
    const adminCookie = asAlice.cookie.split('; ').find((pair) => pair.includes('admin_session=')) ?? ''
    // The admin signs in afresh in this browser while the old cookie lingers.
    const { signIn } = await import('./fixtures.js')
    const fresh = await signIn(auth, { email: root.email })
    const freshSession = await sessionFor(auth, fresh.cookie)
    const reply = await post(auth, 'impersonate-user', `${fresh.cookie}; ${adminCookie}`, { userId: bob.id })
    expect(reply.status).toBe(200)
    const back = await post(auth, 'stop-impersonating', reply.cookie)
    // Back to the session the admin signed in with, not the one the stale cookie named.
    expect(back.body.session.id).toBe(freshSession?.session.id)
  })

  it('racing an impersonation against a ban leaves the user no working session', async () => {
    for (let round = 0; round < 5; round += 1) {
      const storage = memoryStorage()
      const auth = adminAuth({}, { secondaryStorage: storage })
      const { root, alice } = await cast(auth)
      const second = await newUser(auth, { role: 'admin' })
      const [impersonation, ban] = await Promise.all([
        post(auth, 'impersonate-user', root, { userId: alice.id }),
        post(auth, 'ban-user', second, { userId: alice.id }),
      ])
      expect(ban.status).toBe(200)
      expect([200, 403]).toContain(impersonation.status)
      expect(await sessionRows(auth, alice.id)).toEqual([])
      // Whichever won, the caller's cookie is either the admin's own session or nothing: never the user's.
      expect((await sessionFor(auth, impersonation.cookie))?.user.id ?? null).not.toBe(alice.id)
      if (impersonation.status === 403) expect(impersonation.body.code).toBe('BANNED_USER')
    }
  })
})
