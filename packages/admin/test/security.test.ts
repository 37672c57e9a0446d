/**
 * The admin plugin's security rules (docs/admin.md#security), each through
 * `auth.handler`: impersonation sessions end with the power that opened
 * them and never outlive their own lifetime, nobody outside `adminUserIds`
 * acts on a user in it, list-user-sessions is outrank-checked like the other
 * routes, and has-permission reads grants by own keys only. The races run on
 * every SQL backend in sql-backends.test.ts.
 */
import { memoryStorage } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { authed, PASSWORD } from '../../core/test/accounts.js'
import { adminAc, adminRole, adminStatements, createAccessControl, userRole } from '../src/access.js'
import type { AdminOptions } from '../src/options.js'
import { adminAuth, cast, flakyStorage, newUser, post, sessionFor, sessionRows, signIn, type AdminAuth, type TestUser } from './fixtures.js'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const outranked = { code: 'YOU_ARE_NOT_ALLOWED_TO_MANAGE_THIS_USER', message: 'You are not allowed to manage a user with more permissions than you' }

/** The impersonation sessions `adminId` opened, whoever they belong to. */
async function openedBy(auth: AdminAuth, adminId: string) {
  const { db } = await auth.$context
  return db.findMany<{ token: string; userId: string }>({ model: 'session', where: { field: 'impersonatedBy', value: adminId } })
}

/** A rogue admin impersonating two users, and a second admin to stop them. */
async function rogue(auth: AdminAuth) {
  const { root, alice, bob } = await cast(auth)
  const second = await newUser(auth, { role: 'admin' })
  const asAlice = await post(auth, 'impersonate-user', root, { userId: alice.id })
  const asBob = await post(auth, 'impersonate-user', root, { userId: bob.id })
  expect([asAlice.status, asBob.status]).toEqual([200, 200])
  expect(await openedBy(auth, root.id)).toHaveLength(2)
  return { root, alice, bob, second, asAlice, asBob }
}

/** Neither impersonation works any more, and the users' own sessions are untouched. */
async function expectEnded(auth: AdminAuth, r: Awaited<ReturnType<typeof rogue>>) {
  expect(await openedBy(auth, r.root.id)).toEqual([])
  expect(await sessionFor(auth, r.asAlice.cookie)).toBeNull()
  expect(await sessionFor(auth, r.asBob.cookie)).toBeNull()
  expect((await sessionFor(auth, r.alice.cookie))?.user).toMatchObject({ id: r.alice.id })
  expect((await sessionFor(auth, r.bob.cookie))?.user).toMatchObject({ id: r.bob.id })
}

describe('impersonation sessions end with the power that opened them', () => {
  it("the admin's ban ends every session they opened as others, in secondary storage too", async () => {
    const auth = adminAuth({}, { secondaryStorage: memoryStorage() })
    const r = await rogue(auth)
    expect((await post(auth, 'ban-user', r.second, { userId: r.root.id })).status).toBe(200)
    await expectEnded(auth, r)
  })

  it("the admin's removal by remove-user, or their own delete-user, ends them", async () => {
    const auth = adminAuth({}, { secondaryStorage: memoryStorage() })
    const r = await rogue(auth)
    expect((await post(auth, 'remove-user', r.second, { userId: r.root.id })).status).toBe(200)
    await expectEnded(auth, r)

    const own = adminAuth({}, { user: { deleteUser: { enabled: true } } })
    const o = await rogue(own)
    const deleted = await own.handler(authed('/api/auth/delete-user', o.root.cookie, { json: { password: PASSWORD } }))
    expect(deleted.status).toBe(200)
    await expectEnded(own, o)
  })

  it('a role change that takes user:impersonate away ends them with the role; one that keeps it does not', async () => {
    const support = adminAc.newRole({ user: ['list', 'impersonate'] })
    const auth = adminAuth({ roles: { admin: adminRole, user: userRole, support } }, { secondaryStorage: memoryStorage() })
    const r = await rogue(auth)
    expect((await post(auth, 'set-role', r.second, { userId: r.root.id, role: 'support' })).status).toBe(200)
    expect(await openedBy(auth, r.root.id)).toHaveLength(2)
    expect((await sessionFor(auth, r.asAlice.cookie))?.user).toMatchObject({ id: r.alice.id })

    expect((await post(auth, 'set-role', r.second, { userId: r.root.id, role: 'user' })).status).toBe(200)
    await expectEnded(auth, r)
  })

  it('with secondary storage down, the demotion answers 503 and changes nothing; retried, it holds', async () => {
    const flaky = flakyStorage()
    const auth = adminAuth({}, { secondaryStorage: flaky.storage })
    const r = await rogue(auth)
    flaky.setDown(true)
    expect((await post(auth, 'set-role', r.second, { userId: r.root.id, role: 'user' })).status).toBe(503)
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: r.root.id } })).toMatchObject({ role: 'admin' })
    expect(await openedBy(auth, r.root.id)).toHaveLength(2)
    flaky.setDown(false)
    expect((await post(auth, 'set-role', r.second, { userId: r.root.id, role: 'user' })).status).toBe(200)
    await expectEnded(auth, r)
  })

  it("revoke-user-sessions of the admin, and the admin's own sign-out everywhere, end them too", async () => {
    const auth = adminAuth()
    const r = await rogue(auth)
    const revoked = await post(auth, 'revoke-user-sessions', r.second, { userId: r.root.id })
    // The admin's own session, and the two sessions they opened as alice and bob.
    expect(revoked).toMatchObject({ status: 200, body: { success: true, revoked: 3 } })
    await expectEnded(auth, r)

    const again = adminAuth()
    const a = await rogue(again)
    expect((await again.handler(authed('/api/auth/revoke-sessions', a.root.cookie, { method: 'POST' }))).status).toBe(200)
    await expectEnded(again, a)
  })

  it('an admin who lost the power outside the admin routes is caught at the next read of the session', async () => {
    const auth = adminAuth({}, { secondaryStorage: memoryStorage() })
    const r = await rogue(auth)
    const { db } = await auth.$context
    // Written by hand (or a role list edited at deploy): no admin route ran, nothing was swept.
    await db.update({ model: 'user', where: { field: 'id', value: r.root.id }, update: { role: 'user' } })
    expect(await sessionFor(auth, r.asAlice.cookie)).toBeNull()
    expect(await openedBy(auth, r.root.id)).toHaveLength(1)
    await db.update({ model: 'user', where: { field: 'id', value: r.root.id }, update: { role: 'admin', banned: true } })
    expect(await sessionFor(auth, r.asBob.cookie)).toBeNull()
    expect(await openedBy(auth, r.root.id)).toEqual([])
  })

  it('a banned or demoted admin opens no new impersonation', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: root.id }, update: { role: 'user' } })
    expect(await post(auth, 'impersonate-user', root, { userId: alice.id })).toMatchObject({ status: 403, body: { code: 'YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS' } })
    expect(await openedBy(auth, root.id)).toEqual([])
  })
})

describe('an impersonation session never outlives its own lifetime', () => {
  it('with updateAge shorter than the impersonation, the refresh stops at its end', async () => {
    const auth = adminAuth({}, { session: { updateAge: 600 } })
    const { root, alice } = await cast(auth)
    const reply = await post(auth, 'impersonate-user', root, { userId: alice.id })
    const end = auth.clock.now().getTime() + HOUR
    for (let minute = 11; minute < 60; minute += 11) {
      auth.clock.advance(11 * MINUTE)
      const read = await sessionFor(auth, reply.cookie)
      expect(new Date(String(read?.session.expiresAt)).getTime()).toBe(end)
    }
    const [row] = (await sessionRows(auth, alice.id)).filter((session) => session.impersonatedBy === root.id)
    expect(row?.expiresAt.getTime()).toBe(end)
    auth.clock.advance(end - auth.clock.now().getTime())
    expect(await sessionFor(auth, reply.cookie)).toBeNull()
    // The ordinary sessions still slide as configured.
    expect(new Date(String((await sessionFor(auth, root.cookie))?.session.expiresAt)).getTime()).toBe(auth.clock.now().getTime() + 7 * 24 * HOUR)
  })
})

/** Users made with predictable ids, so that `adminUserIds` can name the first two. */
function rootAuth(options: AdminOptions = {}) {
  const counters = new Map<string, number>()
  const generateId = (model: string) => {
    const next = (counters.get(model) ?? 0) + 1
    counters.set(model, next)
    return `${model}-${next}`
  }
  return adminAuth({ adminUserIds: ['user-1', 'user-2'], ...options }, { advanced: { generateId } })
}

async function roots(auth: AdminAuth): Promise<{ top: TestUser; peer: TestUser; admin: TestUser; alice: TestUser }> {
  const top = await newUser(auth)
  const peer = await newUser(auth)
  const admin = await newUser(auth, { role: 'admin' })
  const alice = await newUser(auth)
  expect([top.id, peer.id]).toEqual(['user-1', 'user-2'])
  return { top, peer, admin, alice }
}

describe('users in adminUserIds: nobody outside the list outranks them', () => {
  it('an admin can neither change, ban, impersonate, remove, reset, revoke nor list the sessions of one', async () => {
    const auth = rootAuth({ allowImpersonatingAdmins: true })
    const { top, admin, alice } = await roots(auth)
    const [handle] = await sessionRows(auth, top.id)
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['set-user-password', { userId: top.id, newPassword: 'taken over at last' }],
      ['set-role', { userId: top.id, role: 'user' }],
      ['ban-user', { userId: top.id }],
      ['unban-user', { userId: top.id }],
      ['impersonate-user', { userId: top.id }],
      ['remove-user', { userId: top.id }],
      ['revoke-user-sessions', { userId: top.id }],
      ['revoke-user-session', { sessionToken: handle?.token }],
      ['list-user-sessions', { userId: top.id }],
    ]
    for (const [route, body] of attempts) expect(await post(auth, route, admin, body), route).toMatchObject({ status: 403, body: outranked })
    expect((await signIn(auth, { email: top.email, password: 'taken over at last' })).response.status).toBe(401)
    expect((await sessionFor(auth, top.cookie))?.user).toMatchObject({ id: top.id, role: 'user', banned: false })
    // The same admin still manages ordinary users.
    expect((await post(auth, 'list-user-sessions', admin, { userId: alice.id })).status).toBe(200)
  })

  it('another user in adminUserIds may', async () => {
    const auth = rootAuth()
    const { top, peer } = await roots(auth)
    expect((await post(auth, 'set-user-password', peer, { userId: top.id, newPassword: 'a new passphrase' })).status).toBe(200)
    expect((await post(auth, 'list-user-sessions', peer, { userId: top.id })).body.sessions).toHaveLength(1)
    expect((await post(auth, 'ban-user', peer, { userId: top.id })).status).toBe(200)
  })

  it('with statements beyond the admin ones, an admin cannot step into a root account to gain them', async () => {
    const ac = createAccessControl({ ...adminStatements, report: ['read'] })
    const roles = { admin: ac.newRole({ ...adminStatements }), user: ac.newRole({}) }
    const auth = rootAuth({ roles })
    const { top, admin } = await roots(auth)
    const reportRead = { permissions: { report: ['read'] } }
    expect((await post(auth, 'has-permission', admin, reportRead)).body).toEqual({ success: false })
    expect(await post(auth, 'set-user-password', admin, { userId: top.id, newPassword: 'taken over at last' })).toMatchObject({ status: 403, body: outranked })
    expect((await post(auth, 'has-permission', top, reportRead)).body).toEqual({ success: true })
  })
})

describe('list-user-sessions is outrank-checked like the other routes', () => {
  it("a support role lists a user's sessions, not an admin's", async () => {
    const support = adminAc.newRole({ user: ['list'], session: ['list', 'revoke'] })
    const auth = adminAuth({ roles: { admin: adminRole, user: userRole, support } })
    const { root, alice } = await cast(auth)
    const helpdesk = await newUser(auth, { role: 'support' })
    expect((await post(auth, 'list-user-sessions', helpdesk, { userId: alice.id })).body.sessions).toHaveLength(1)
    expect(await post(auth, 'list-user-sessions', helpdesk, { userId: root.id })).toMatchObject({ status: 403, body: outranked })
    expect((await post(auth, 'list-user-sessions', root, { userId: helpdesk.id })).status).toBe(200)
  })
})

describe('has-permission reads grants by own keys only', () => {
  const INHERITED = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']

  it('a resource named like an inherited property is one nobody holds: false, never a 500', async () => {
    const auth = rootAuth()
    const { top, admin, alice } = await roots(auth)
    for (const resource of INHERITED) {
      const permissions = { [resource]: ['x'] }
      for (const body of [{ permissions }, { permissions, role: 'admin' }, { permissions, userId: alice.id }, { permissions: { user: ['list'], ...permissions } }]) {
        expect(await post(auth, 'has-permission', admin, body), `${resource} ${JSON.stringify(body)}`).toMatchObject({ status: 200, body: { success: false } })
      }
      expect(await post(auth, 'has-permission', alice, { permissions })).toMatchObject({ status: 200, body: { success: false } })
      // A user in adminUserIds holds every permission, whatever it is called.
      expect(await post(auth, 'has-permission', top, { permissions })).toMatchObject({ status: 200, body: { success: true } })
    }
  })

  it('a request naming no resource, or __proto__ (dropped by validation, leaving {}), is 400, never true', async () => {
    const auth = rootAuth()
    const { admin, alice } = await roots(auth)
    // JSON.parse keeps `__proto__` as an own key, as the server's body parser does.
    const proto = JSON.parse('{"__proto__":["x"]}') as Record<string, string[]>
    const protoAndReal = JSON.parse('{"__proto__":["x"],"user":["list"]}') as Record<string, string[]>
    for (const caller of [admin, alice]) {
      for (const permissions of [{}, proto, protoAndReal]) {
        const reply = await post(auth, 'has-permission', caller, { permissions })
        expect(reply.status, JSON.stringify(permissions)).toBe(400)
        expect(reply.body).not.toHaveProperty('success')
      }
    }
    expect(await post(auth, 'has-permission', alice, { permissions: { user: ['list'] } })).toMatchObject({ status: 200, body: { success: false } })
    expect(await post(auth, 'has-permission', admin, { permissions: { user: ['list'] } })).toMatchObject({ status: 200, body: { success: true } })
  })
})
