/**
 * An impersonation session ends once the user it impersonates could no
 * longer be impersonated by the admin who opened it (docs/admin.md#security):
 * promoted to admin (unless `allowImpersonatingAdmins`), or granted something
 * the admin does not hold. set-role sweeps the user's impersonation sessions
 * in the transaction that changes the roles; a change made elsewhere is
 * caught at the session's next read. Otherwise a support agent impersonating
 * a user who is later promoted acts with the promotion, and can make itself
 * admin for good.
 */
import { memoryStorage } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { adminAc, adminRole, userRole } from '../src/access.js'
import type { AdminOptions } from '../src/options.js'
import { adminAuth, newUser, post, sessionFor, sessionRows, type AdminAuth } from './fixtures.js'

const support = adminAc.newRole({ user: ['impersonate', 'list'] })
// Not an admin role, but holding something the support role lacks.
const auditor = adminAc.newRole({ session: ['list'] })

function supportAuth(options: AdminOptions = {}) {
  return adminAuth({ roles: { admin: adminRole, user: userRole, support, auditor }, ...options }, { secondaryStorage: memoryStorage() })
}

/** An admin, a support agent S impersonating user U, and another admin S would like to take over. */
async function scene(auth: AdminAuth) {
  const root = await newUser(auth, { role: 'admin' })
  const otherAdmin = await newUser(auth, { role: 'admin' })
  const agent = await newUser(auth, { role: 'support' })
  const user = await newUser(auth)
  expect((await post(auth, 'set-role', agent, { userId: agent.id, role: 'admin' })).status).toBe(403)
  const asUser = await post(auth, 'impersonate-user', agent, { userId: user.id })
  expect(asUser.status).toBe(200)
  return { root, otherAdmin, agent, user, asUser }
}

async function impersonations(auth: AdminAuth, userId: string) {
  return (await sessionRows(auth, userId)).filter((row) => row.impersonatedBy !== null)
}

async function roleOf(auth: AdminAuth, userId: string) {
  const { db } = await auth.$context
  return (await db.findOne<{ role: string | null }>({ model: 'user', where: { field: 'id', value: userId } }))?.role
}

describe('an impersonation ends when its user is promoted', () => {
  it('set-role of the impersonated user to admin ends the session in its transaction; the agent gains nothing', async () => {
    const auth = supportAuth()
    const { root, otherAdmin, agent, user, asUser } = await scene(auth)
    expect((await post(auth, 'set-role', root, { userId: user.id, role: 'admin' })).status).toBe(200)
    expect(await impersonations(auth, user.id)).toEqual([])
    expect(await sessionFor(auth, asUser.cookie)).toBeNull()
    // The review's harness: as the promoted user, make the agent admin, reset another admin's password.
    expect((await post(auth, 'set-role', asUser.cookie, { userId: agent.id, role: 'admin' })).status).toBe(401)
    expect((await post(auth, 'set-user-password', asUser.cookie, { userId: otherAdmin.id, newPassword: 'taken over at last' })).status).toBe(401)
    expect(await roleOf(auth, agent.id)).toBe('support')
    // The user's own session is untouched, and now an admin's.
    expect((await sessionFor(auth, user.cookie))?.user).toMatchObject({ id: user.id, role: 'admin' })
  })

  it('a grant the agent lacks ends it too, and any role change does; the same roles again do not', async () => {
    const auth = supportAuth()
    const { root, user, asUser, agent } = await scene(auth)
    expect((await post(auth, 'set-role', root, { userId: user.id, role: 'user' })).status).toBe(200)
    expect(await impersonations(auth, user.id)).toHaveLength(1)
    expect((await sessionFor(auth, asUser.cookie))?.user).toMatchObject({ id: user.id })

    expect((await post(auth, 'set-role', root, { userId: user.id, role: 'auditor' })).status).toBe(200)
    expect(await impersonations(auth, user.id)).toEqual([])
    expect(await sessionFor(auth, asUser.cookie)).toBeNull()

    // Any change of the user's roles ends what was opened on the old ones, even one the agent still outranks.
    const again = await post(auth, 'impersonate-user', agent, { userId: (await newUser(auth)).id })
    expect(again.status).toBe(200)
    const target = String(again.body.user.id)
    expect((await post(auth, 'set-role', root, { userId: target, role: ['user', 'support'] })).status).toBe(200)
    expect(await impersonations(auth, target)).toEqual([])
  })

  it('a promotion written outside the admin routes ends the session at its next read', async () => {
    const auth = supportAuth()
    const { agent, user, asUser } = await scene(auth)
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: user.id }, update: { role: 'auditor' } })
    expect(await sessionFor(auth, asUser.cookie)).toBeNull()
    expect((await post(auth, 'set-role', asUser.cookie, { userId: agent.id, role: 'admin' })).status).toBe(401)

    const second = await post(auth, 'impersonate-user', agent, { userId: user.id })
    expect(second.status).toBe(403)
    await db.update({ model: 'user', where: { field: 'id', value: user.id }, update: { role: 'user' } })
    const third = await post(auth, 'impersonate-user', agent, { userId: user.id })
    expect(third.status).toBe(200)
    await db.update({ model: 'user', where: { field: 'id', value: user.id }, update: { role: 'admin' } })
    expect(await sessionFor(auth, third.cookie)).toBeNull()
    expect(await roleOf(auth, agent.id)).toBe('support')
  })

  it('with allowImpersonatingAdmins, an admin impersonating a user promoted to admin by hand keeps the session', async () => {
    const auth = supportAuth({ allowImpersonatingAdmins: true })
    const root = await newUser(auth, { role: 'admin' })
    const user = await newUser(auth)
    const asUser = await post(auth, 'impersonate-user', root, { userId: user.id })
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: user.id }, update: { role: 'admin' } })
    expect((await sessionFor(auth, asUser.cookie))?.user).toMatchObject({ id: user.id })
    // Without the option, the same change ends it.
    const strict = supportAuth()
    const strictRoot = await newUser(strict, { role: 'admin' })
    const strictUser = await newUser(strict)
    const strictAsUser = await post(strict, 'impersonate-user', strictRoot, { userId: strictUser.id })
    await (await strict.$context).db.update({ model: 'user', where: { field: 'id', value: strictUser.id }, update: { role: 'admin' } })
    expect(await sessionFor(strict, strictAsUser.cookie)).toBeNull()
  })
})
