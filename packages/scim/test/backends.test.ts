/**
 * The plugin on every backend: the in-memory adapter, SQLite always,
 * PostgreSQL and MariaDB when configured (GATEHOUSE_TEST_POSTGRES_URL,
 * GATEHOUSE_TEST_MYSQL_URL; there parallel requests run on pooled
 * connections and really interleave). Migrations create the tables and the
 * unique indexes; a directory's flow runs on them; and races are decided by
 * the organization's lock and the indexes: two creates of one `userName`
 * make one 201 and one 409, ten make one user; concurrent group changes
 * lose no member.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { authed } from '../../core/test/accounts.js'
import { addMember, connectedOrg, GROUP, newUser, PATCH_OP, scimAuth, USER, type ScimAuth } from './fixtures.js'

function statuses(replies: ReadonlyArray<{ status: number }>): number[] {
  return replies.map((reply) => reply.status).sort()
}

function suite(label: string, ready: () => ScimAuth) {
  it(`${label}: two creates of one userName at once make one 201 and one 409`, async () => {
    const auth = ready()
    const { dir } = await connectedOrg(auth)
    const replies = await Promise.all([
      dir.post('/Users', { schemas: [USER], userName: 'race@acme.example', externalId: 'r1' }),
      dir.post('/Users', { schemas: [USER], userName: 'RACE@acme.example', externalId: 'r2' }),
    ])
    expect(statuses(replies)).toEqual([201, 409])
    expect(replies.find((reply) => reply.status === 409)?.body).toMatchObject({ scimType: 'uniqueness' })
    const { db } = await auth.$context
    expect(await db.count({ model: 'user', where: { field: 'email', value: 'race@acme.example' } })).toBe(1)
  })

  it(`${label}: ten creates of one person under different userNames make one user and one record`, async () => {
    const auth = ready()
    const { dir, org } = await connectedOrg(auth)
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, index) => dir.post('/Users', { schemas: [USER], userName: `p${index}`, emails: [{ value: 'person@acme.example', primary: true }] })),
    )
    expect(statuses(replies)).toEqual([201, ...Array(9).fill(409)])
    const { db } = await auth.$context
    expect(await db.count({ model: 'scimUser', where: { field: 'organizationId', value: org.id } })).toBe(1)
    expect(await db.count({ model: 'member', where: { field: 'organizationId', value: org.id } })).toBe(2)
  })

  it(`${label}: concurrent membership PATCHes of one group lose no member`, async () => {
    const auth = ready()
    const { dir } = await connectedOrg(auth)
    const ids: string[] = []
    for (let index = 0; index < 6; index++) ids.push((await dir.post('/Users', { schemas: [USER], userName: `m${index}@acme.example` })).body.id)
    const group = (await dir.post('/Groups', { schemas: [GROUP], displayName: 'Concurrent' })).body.id as string
    const replies = await Promise.all(ids.map((id) => dir.patch(`/Groups/${group}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: id }] }] })))
    expect(statuses(replies)).toEqual(Array(6).fill(204))
    const members = (await dir.get(`/Groups/${group}`)).body.members.map((member: { value: string }) => member.value)
    expect(members.sort()).toEqual([...ids].sort())
  })

  it(`${label}: a deactivation ends the member's live session within the request`, async () => {
    const auth = ready()
    const { dir, org } = await connectedOrg(auth)
    const ada = await newUser(auth)
    await addMember(auth, org.id, ada)
    const before = await auth.handler(authed('/api/auth/get-session?disableCookieCache=true', ada.cookie))
    expect((await before.json())?.user.id).toBe(ada.id)
    expect((await dir.patch(`/Users/${ada.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] })).status).toBe(200)
    const after = await auth.handler(authed('/api/auth/get-session?disableCookieCache=true', ada.cookie))
    expect(await after.json()).toBeNull()
  })

  it(`${label}: the directory's whole flow`, async () => {
    const auth = ready()
    const { dir, org } = await connectedOrg(auth)
    const created = await dir.post('/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      userName: 'flow@acme.example',
      name: { givenName: 'Flo', familyName: 'W' },
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Ops' },
    })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    expect((await dir.get(`/Users?filter=${encodeURIComponent('userName eq "FLOW@acme.example"')}`)).body.totalResults).toBe(1)
    expect((await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] })).body.active).toBe(false)
    const { db } = await auth.$context
    const member = await db.findOne<{ suspendedAt: Date | null }>({ model: 'member', where: [{ field: 'organizationId', value: org.id }, { field: 'userId', value: id }] })
    expect(member?.suspendedAt).toBeInstanceOf(Date)
    const group = await dir.post('/Groups', { schemas: [GROUP], displayName: 'Flow', externalId: 'g-1', members: [{ value: id }] })
    expect(group.status).toBe(201)
    expect((await dir.get(`/Users/${id}`)).body).toMatchObject({ active: false, groups: [{ value: group.body.id }], 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Ops' } })
    expect((await dir.delete(`/Users/${id}`)).status).toBe(204)
    expect((await dir.get(`/Groups/${group.body.id}`)).body.members).toEqual([])
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: id } })).toBeNull()
  })
}

describe('scim on the memory adapter', () => {
  suite('memory', () => scimAuth())
})

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`scim on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: ScimAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = scimAuth({ database: backend.factory })
      const migration = await runMigrations(auth)
      expect(migration.applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    function ready(): ScimAuth {
      if (!auth) throw new Error('backend not ready')
      return auth
    }

    it('migrations create the tables, the member column and the unique indexes; a second run has nothing to do', async () => {
      const current = ready()
      const { adapter } = await current.$context
      for (const model of ['scimToken', 'scimUser', 'scimGroup']) expect(await adapter.count({ model })).toBe(0)
      expect((await runMigrations(current)).statements).toEqual([])
      const { org } = await connectedOrg(current)
      const row = { organizationId: org.id, userId: 'u', userName: 'x', userNameKey: 'dup', externalId: null, attributes: null, createdUser: false, createdAt: new Date(), updatedAt: new Date() }
      const { db } = await current.$context
      const user = await db.create<{ id: string }>({ model: 'user', data: { name: 'U', email: `u-${dialect}@acme.example`, emailVerified: false } })
      const other = await db.create<{ id: string }>({ model: 'user', data: { name: 'V', email: `v-${dialect}@acme.example`, emailVerified: false } })
      await adapter.create({ model: 'scimUser', data: { ...row, id: `s1-${dialect}`, userId: user.id } })
      await expect(adapter.create({ model: 'scimUser', data: { ...row, id: `s2-${dialect}`, userId: other.id } })).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' })
    })

    suite(dialect, ready)
  })
}
