/**
 * The cookie cache and secondary storage after switching organizations
 * (docs/organization.md#security). With the cookie cache on, the session a
 * route sees is the signed copy the browser sent; set-active, set-active-team,
 * create, accept-invitation and leave write a new cache and refresh the
 * secondary-storage copies. They must write the user as the database has it:
 * re-signing the cached copy with a fresh expiry would let a demoted user who
 * keeps switching keep their old role forever, in the cookie and, through
 * secondary storage, even for `disableCookieCache` reads.
 */
import { memoryStorage, refreshUserInStorage, type Row, type User } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { authed, browserAnswer, signIn } from '../../core/test/accounts.js'
import { addMember, createOrg, newUser, orgAuth, sessionOf, type OrgAuth, type TestUser } from './fixtures.js'

const MAX_AGE = 60

/** An auth with the cookie cache, secondary storage and a `role` user field, like the admin plugin's. */
function cachedAuth() {
  return orgAuth(
    { teams: { enabled: true } },
    {
      secondaryStorage: memoryStorage(),
      session: { cookieCache: { enabled: true, maxAge: MAX_AGE } },
      user: { additionalFields: { role: { type: 'string', defaultValue: 'user', input: false } } },
    },
  )
}

/** Writes the user's role and refreshes the stored session copies, as the admin plugin's set-role does. */
async function setRole(auth: OrgAuth, user: TestUser, role: string) {
  const { db } = await auth.$context
  const updated = await db.update<User & Row>({
    model: 'user',
    where: { field: 'id', value: user.id },
    update: { role },
  })
  if (!updated) throw new Error('user not found')
  await refreshUserInStorage(await auth.$context, updated)
}

/** A browser: sends its cookies, keeps what the answer sets. */
function browser(auth: OrgAuth, cookie: string) {
  let jar = cookie
  return {
    get cookie() {
      return jar
    },
    async post(path: string, json: unknown) {
      const answer = await browserAnswer(await auth.handler(authed(`/api/auth/${path}`, jar, { json })), jar)
      jar = answer.cookie
      return answer
    },
    async role(query = '') {
      const answer = await browserAnswer(await auth.handler(authed(`/api/auth/get-session${query}`, jar)), jar)
      jar = answer.cookie
      return answer.body?.user?.role as string | undefined
    },
  }
}

/** An admin (role in the signed cache) who is then demoted in the database. */
async function demotedAdmin(auth: OrgAuth) {
  const ada = await newUser(auth)
  await setRole(auth, ada, 'admin')
  const { cookie } = await signIn(auth, { email: ada.email })
  const tab = browser(auth, cookie)
  expect(await tab.role()).toBe('admin')
  const org = await createOrg(auth, { ...ada, cookie: tab.cookie })
  await setRole(auth, ada, 'user')
  return { ada, tab, org }
}

describe('switching organizations re-signs the user from the database', () => {
  it('a demoted admin switching every 50 seconds sees role=user once the cache it had expires', async () => {
    const auth = cachedAuth()
    const { tab, org } = await demotedAdmin(auth)
    for (let round = 0; round < 10; round += 1) {
      auth.clock.advance(50_000)
      const reply = round % 3 === 2 ? await tab.post('organization/set-active-team', { teamId: null }) : await tab.post('organization/set-active', { organizationId: round % 2 ? null : org.id })
      expect(reply.status).toBe(200)
    }
    // 500 s after the demotion: the cookie cache, secondary storage and the database agree.
    expect(await tab.role('?disableCookieCache=true')).toBe('user')
    expect(await tab.role()).toBe('user')
  })

  it('the first switch after the demotion already writes the current user', async () => {
    const auth = cachedAuth()
    const { tab, org } = await demotedAdmin(auth)
    expect((await tab.post('organization/set-active', { organizationId: org.id })).status).toBe(200)
    expect(await tab.role()).toBe('user')
    expect(await tab.role('?disableCookieCache=true')).toBe('user')
  })

  it('creating an organization and leaving one write the current user too', async () => {
    const auth = cachedAuth()
    const { ada, tab } = await demotedAdmin(auth)
    const created = await tab.post('organization/create', { name: 'Fresh', slug: `fresh-${ada.id}` })
    expect(created.status).toBe(200)
    expect(await tab.role()).toBe('user')

    const other = await cachedUserIn(auth)
    await setRole(auth, other.user, 'user')
    auth.clock.advance(50_000)
    // leave clears the active organization on the caller's sessions and re-signs its cache.
    expect((await other.tab.post('organization/leave', { organizationId: other.orgId })).status).toBe(200)
    auth.clock.advance(50_000)
    expect(await other.tab.role()).toBe('user')
    expect(await other.tab.role('?disableCookieCache=true')).toBe('user')
  })

  it('clearing the active team keeps the organization the session row has, not the cached one', async () => {
    const auth = cachedAuth()
    const owner = await newUser(auth)
    const org = await createOrg(auth, owner)
    const bo = await newUser(auth)
    await addMember(auth, org.id, bo)
    const tab = browser(auth, bo.cookie)
    expect((await tab.post('organization/set-active', { organizationId: org.id })).status).toBe(200)
    // Removed behind the cached session's back: the row loses the organization, the signed cache still names it.
    const { db } = await auth.$context
    const row = await db.findOne<Row & { id: string }>({ model: 'member', where: [{ field: 'organizationId', value: org.id }, { field: 'userId', value: bo.id }] })
    const removed = await browserAnswer(
      await auth.handler(authed('/api/auth/organization/remove-member', owner.cookie, { json: { organizationId: org.id, memberIdOrEmail: row?.id } })),
    )
    expect(removed.status).toBe(200)
    expect((await sessionOf(auth, bo))?.activeOrganizationId).toBeNull()
    expect((await tab.post('organization/set-active-team', { teamId: null })).status).toBe(200)
    expect((await sessionOf(auth, bo))?.activeOrganizationId).toBeNull()
  })
})

/** A user with role admin in its cache, member of an organization owned by someone else. */
async function cachedUserIn(auth: OrgAuth) {
  const owner = await newUser(auth)
  const org = await createOrg(auth, owner)
  const user = await newUser(auth)
  await setRole(auth, user, 'admin')
  await addMember(auth, org.id, user)
  const { cookie } = await signIn(auth, { email: user.email })
  const tab = browser(auth, cookie)
  expect((await tab.post('organization/set-active', { organizationId: org.id })).status).toBe(200)
  expect(await tab.role()).toBe('admin')
  return { user, tab, orgId: org.id }
}
