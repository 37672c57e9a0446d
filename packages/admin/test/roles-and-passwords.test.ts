import { describe, expect, it } from 'vitest'
import { adminAc } from '../src/access.js'
import { adminAuth, cast, newUser, post, sessionRows, signIn } from './fixtures.js'

describe('POST /admin/set-role', () => {
  it('sets one role or several, and the new role takes effect at once', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    const reply = await post(auth, 'set-role', root, { userId: alice.id, role: ['admin', 'user', 'admin'] })
    expect(reply).toMatchObject({ status: 200, body: { user: { id: alice.id, role: 'admin,user' } } })
    expect((await post(auth, 'list-user-sessions', alice, { userId: root.id })).status).toBe(200)
    await post(auth, 'set-role', root, { userId: alice.id, role: 'user' })
    // The role is read from the database on each call, so the demotion bites on the next request.
    expect((await post(auth, 'list-user-sessions', alice, { userId: root.id })).status).toBe(403)
  })

  it('a user can never raise their own role; admins cannot grant beyond their own permissions', async () => {
    const ac = adminAc
    const auth = adminAuth({
      roles: {
        admin: ac.newRole({ user: ['create', 'list', 'set-role', 'ban', 'impersonate', 'delete', 'set-password'], session: ['list', 'revoke', 'delete'] }),
        user: ac.newRole({}),
        support: ac.newRole({ user: ['list', 'set-role'] }),
      },
    })
    const { root, alice, bob } = await cast(auth)
    expect(await post(auth, 'set-role', alice, { userId: alice.id, role: 'admin' })).toMatchObject({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE', message: "You are not allowed to change users' role" },
    })
    await post(auth, 'set-role', root, { userId: bob.id, role: 'support' })
    // support may change roles, but neither to admin (for itself or another) nor of an admin.
    expect(await post(auth, 'set-role', bob, { userId: bob.id, role: 'admin' })).toMatchObject({ status: 403, body: { code: 'YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE' } })
    expect(await post(auth, 'set-role', bob, { userId: alice.id, role: 'admin' })).toMatchObject({ status: 403, body: { code: 'YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE' } })
    expect(await post(auth, 'set-role', bob, { userId: root.id, role: 'user' })).toMatchObject({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_MANAGE_THIS_USER', message: 'You are not allowed to manage a user with more permissions than you' },
    })
    expect((await post(auth, 'set-role', bob, { userId: alice.id, role: 'support' })).status).toBe(200)
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: root.id } })).toMatchObject({ role: 'admin' })
  })

  it('answers 404 for an unknown user, 400 for an unknown role or a bad body, 401 anonymous', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    expect(await post(auth, 'set-role', root, { userId: 'nobody', role: 'user' })).toMatchObject({ status: 404, body: { code: 'USER_NOT_FOUND', message: 'User not found' } })
    expect(await post(auth, 'set-role', root, { userId: alice.id, role: 'wizard' })).toMatchObject({ status: 400, body: { code: 'ROLE_NOT_FOUND' } })
    expect((await post(auth, 'set-role', root, { userId: alice.id, role: ' , ' })).status).toBe(400)
    expect((await post(auth, 'set-role', root, { userId: alice.id })).status).toBe(400)
    expect((await post(auth, 'set-role', null, { userId: alice.id, role: 'admin' })).status).toBe(401)
  })

  it('a user listed in adminUserIds holds every permission whatever their role', async () => {
    let users = 0
    // Ids chosen by the application, so the first user's id is known before it signs up.
    const generateId = (model: string) => (model === 'user' ? `user-${++users}` : `${model}-${Math.random().toString(36).slice(2)}`)
    const auth = adminAuth({ adminUserIds: ['user-1'] }, { advanced: { generateId } })
    const chief = await newUser(auth)
    const alice = await newUser(auth)
    expect(chief.id).toBe('user-1')
    expect((await post(auth, 'set-role', chief, { userId: alice.id, role: 'admin' })).status).toBe(200)
    expect((await post(auth, 'has-permission', chief, { permissions: { user: ['delete'], session: ['delete'] } })).body).toEqual({ success: true })
    // Listed users count as admins: they are not impersonated unless allowed.
    expect((await post(auth, 'impersonate-user', alice, { userId: chief.id })).body.code).toBe('YOU_CANNOT_IMPERSONATE_ADMINS')
  })
})

describe('POST /admin/set-user-password', () => {
  it('sets the password under the length rules; the old one stops working', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    expect(await post(auth, 'set-user-password', root, { userId: alice.id, newPassword: 'brand new password' })).toMatchObject({ status: 200, body: { status: true } })
    expect((await signIn(auth, { email: alice.email })).response.status).toBe(401)
    expect((await signIn(auth, { email: alice.email, password: 'brand new password' })).response.status).toBe(200)
    expect(await post(auth, 'set-user-password', root, { userId: alice.id, newPassword: 'short' })).toMatchObject({ status: 400, body: { message: 'Password too short' } })
    expect(await post(auth, 'set-user-password', root, { userId: alice.id, newPassword: 'x'.repeat(129) })).toMatchObject({ status: 400, body: { message: 'Password too long' } })
  })

  it('creates the credential account of a user who has none', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    const { db } = await auth.$context
    await db.deleteMany({ model: 'account', where: { field: 'userId', value: alice.id } })
    expect((await post(auth, 'set-user-password', root, { userId: alice.id, newPassword: 'brand new password' })).status).toBe(200)
    expect(await db.count({ model: 'account', where: { field: 'userId', value: alice.id } })).toBe(1)
  })

  it('refuses a user, the anonymous caller, an unknown user, and a target stronger than the caller', async () => {
    const auth = adminAuth({
      roles: { admin: adminAc.newRole({ user: ['set-password', 'list'] }), user: adminAc.newRole({}), helpdesk: adminAc.newRole({ user: ['set-password'] }) },
    })
    const { root, alice, bob } = await cast(auth)
    expect(await post(auth, 'set-user-password', alice, { userId: bob.id, newPassword: 'brand new password' })).toMatchObject({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD', message: "You are not allowed to set users' password" },
    })
    expect((await post(auth, 'set-user-password', null, { userId: bob.id, newPassword: 'brand new password' })).status).toBe(401)
    expect((await post(auth, 'set-user-password', root, { userId: 'nobody', newPassword: 'brand new password' })).status).toBe(404)
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: bob.id }, update: { role: 'helpdesk' } })
    expect(await post(auth, 'set-user-password', bob, { userId: root.id, newPassword: 'brand new password' })).toMatchObject({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_MANAGE_THIS_USER' },
    })
    expect((await signIn(auth, { email: root.email })).response.status).toBe(200)
  })
})

describe('POST /admin/remove-user', () => {
  it('deletes the user, their sessions and accounts; they can no longer sign in', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    expect(await post(auth, 'remove-user', root, { userId: alice.id })).toMatchObject({ status: 200, body: { success: true } })
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: alice.id } })).toBeNull()
    expect(await db.count({ model: 'account', where: { field: 'userId', value: alice.id } })).toBe(0)
    expect(await sessionRows(auth, alice.id)).toEqual([])
    expect((await signIn(auth, { email: alice.email })).response.status).toBe(401)
    // The admin's own session is untouched.
    expect((await post(auth, 'list-user-sessions', root, { userId: root.id })).body.sessions).toHaveLength(1)
  })

  it('refuses removing yourself, a user, the anonymous caller, and an unknown user', async () => {
    const auth = adminAuth()
    const { root, alice, bob } = await cast(auth)
    expect(await post(auth, 'remove-user', root, { userId: root.id })).toMatchObject({
      status: 400,
      body: { code: 'YOU_CANNOT_REMOVE_YOURSELF', message: 'You cannot remove yourself' },
    })
    expect(await post(auth, 'remove-user', alice, { userId: bob.id })).toMatchObject({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS', message: 'You are not allowed to delete users' },
    })
    expect((await post(auth, 'remove-user', null, { userId: bob.id })).status).toBe(401)
    expect((await post(auth, 'remove-user', root, { userId: 'nobody' })).status).toBe(404)
    const { db } = await auth.$context
    expect(await db.count({ model: 'user' })).toBe(3)
  })
})

describe('POST /admin/has-permission', () => {
  it('answers for the caller, for another user or a role (with user: list), and server-side without a session', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    expect(await post(auth, 'has-permission', root, { permissions: { user: ['ban'], session: ['revoke'] } })).toMatchObject({ status: 200, body: { success: true } })
    expect(await post(auth, 'has-permission', alice, { permissions: { user: ['ban'] } })).toMatchObject({ status: 200, body: { success: false } })
    expect(await post(auth, 'has-permission', alice, { userId: alice.id, permissions: { user: ['list'] } })).toMatchObject({ body: { success: false } })
    expect((await post(auth, 'has-permission', root, { userId: alice.id, permissions: { user: ['list'] } })).body).toEqual({ success: false })
    expect((await post(auth, 'has-permission', root, { role: 'admin', permissions: { user: ['delete'] } })).body).toEqual({ success: true })
    expect(await post(auth, 'has-permission', alice, { role: 'admin', permissions: { user: ['delete'] } })).toMatchObject({ status: 403, body: { code: 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS' } })
    expect((await post(auth, 'has-permission', null, { permissions: { user: ['list'] } })).status).toBe(401)
    expect((await post(auth, 'has-permission', root, { userId: 'nobody', permissions: { user: ['list'] } })).status).toBe(404)
    expect((await post(auth, 'has-permission', root, { userId: alice.id, role: 'admin', permissions: { user: ['list'] } })).status).toBe(400)
    await expect(auth.api.userHasPermission({ body: { userId: root.id, permissions: { user: ['impersonate'] } } })).resolves.toEqual({ success: true })
    await expect(auth.api.userHasPermission({ body: { role: 'user', permissions: { user: ['list'] } } })).resolves.toEqual({ success: false })
  })
})
