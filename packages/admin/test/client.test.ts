// @vitest-environment jsdom
/**
 * The client half against a real in-process server with the plugin: the
 * route table matches the server, every route's answer has the shape the
 * client expects (Dates revived), errors keep the catalogue's code, and
 * impersonating reloads the session the page sees.
 */
import { createAuthClient } from '@gatehouse/react'
import { describe, expect, it } from 'vitest'
import { BASE } from '../../core/test/helpers.js'
import { browser, type Browser } from '../../react/test/browser.js'
import { expectTableMatches, routeTour } from '../../react/test/routes.js'
import { adminClient } from '../src/client.js'
import { adminRoutes } from '../src/client/routes.js'
import { resolveAdminOptions } from '../src/options.js'
import { adminEndpoints } from '../src/routes/index.js'
import { adminAuth, type AdminAuth } from './fixtures.js'

const PASSWORD = 'correct horse battery'
let counter = 0
const email = () => `client${++counter}@example.com`

function clientOf(auth: AdminAuth, tab: Browser) {
  return createAuthClient<typeof auth>({ baseURL: BASE, fetch: tab.fetch, plugins: [adminClient()] })
}

async function makeAdmin(auth: AdminAuth, userId: string) {
  const { db } = await auth.$context
  await db.update({ model: 'user', where: { field: 'id', value: userId }, update: { role: 'admin' } })
}

describe('admin route table', () => {
  it('matches the server: every endpoint, paths and methods', () => {
    expectTableMatches(adminRoutes, adminEndpoints(resolveAdminOptions()), {})
  })
})

describe('every admin route answers the shape the client expects', () => {
  it('a tour of every route', async () => {
    const auth = adminAuth()
    const tab = browser(auth)
    const root = clientOf(auth, tab)
    const { ok, expectComplete } = routeTour()
    const signedUp = await ok('signUp.email', root.signUp.email({ name: 'Root', email: email(), password: PASSWORD }))
    await makeAdmin(auth, signedUp.user.id)

    const created = await ok('createUser', root.admin.createUser({ email: email(), password: PASSWORD, name: 'Ada', role: 'user' }))
    expect(created.user.createdAt).toBeInstanceOf(Date)
    const list = await ok('listUsers', root.admin.listUsers({ searchValue: 'client', limit: 10, sortBy: 'name' }))
    expect(list).toMatchObject({ total: 2, limit: 10, offset: 0 })
    expect(list.users.map((user) => user.name)).toEqual(['Ada', 'Root'])
    await ok('setRole', root.admin.setRole({ userId: created.user.id, role: ['user'] }))
    const banned = await ok('banUser', root.admin.banUser({ userId: created.user.id, banReason: 'spam', banExpiresIn: 60 }))
    expect(banned.user.banExpires).toBeInstanceOf(Date)
    await ok('unbanUser', root.admin.unbanUser({ userId: created.user.id }))
    await ok('setUserPassword', root.admin.setUserPassword({ userId: created.user.id, newPassword: 'another password' }))

    const impersonated = await ok('impersonateUser', root.admin.impersonateUser({ userId: created.user.id }))
    expect(impersonated.session.impersonatedBy).toBe(signedUp.user.id)
    expect((await root.getSession()).data?.user.id).toBe(created.user.id)
    await ok('stopImpersonating', root.admin.stopImpersonating())
    expect((await root.getSession()).data?.user.id).toBe(signedUp.user.id)

    const sessions = await ok('listUserSessions', root.admin.listUserSessions({ userId: signedUp.user.id }))
    expect(sessions.sessions[0]?.expiresAt).toBeInstanceOf(Date)
    const other = clientOf(auth, browser(auth))
    await other.signIn.email({ email: created.user.email, password: 'another password' })
    const theirs = await ok('listUserSessions', root.admin.listUserSessions({ userId: created.user.id }))
    await ok('revokeUserSession', root.admin.revokeUserSession({ sessionToken: theirs.sessions[0]?.token ?? '' }))
    await ok('revokeUserSessions', root.admin.revokeUserSessions({ userId: created.user.id }))
    expect(await ok('hasPermission', root.admin.hasPermission({ permissions: { user: ['ban'] } }))).toEqual({ success: true })
    await ok('removeUser', root.admin.removeUser({ userId: created.user.id }))

    expectComplete(Object.keys(adminRoutes.admin))
  })

  it('errors keep the plugin catalogue code', async () => {
    const auth = adminAuth()
    const client = clientOf(auth, browser(auth))
    const signedUp = await client.signUp.email({ name: 'User', email: email(), password: PASSWORD })
    expect(await client.admin.listUsers()).toMatchObject({
      data: null,
      error: { status: 403, code: 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS', message: 'You are not allowed to list users' },
    })
    await makeAdmin(auth, signedUp.data?.user.id ?? '')
    expect((await client.admin.banUser({ userId: signedUp.data?.user.id ?? '' })).error).toEqual({
      status: 400,
      code: 'YOU_CANNOT_BAN_YOURSELF',
      message: 'You cannot ban yourself',
    })
  })
})
