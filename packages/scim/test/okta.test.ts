/**
 * The requests Okta documents for its SCIM 2.0 clients ("Okta and SCIM
 * Version 2.0"), in its order, each answer checked for the shape and code
 * Okta expects: look the user up by `userName eq` (none), create it (201
 * with `id` and `Location`), import users, read it, replace its profile with
 * PUT, deactivate and reactivate with a path-less PATCH, then push a group,
 * rename it with a path-less PATCH carrying its id, change its members with
 * `members[value eq "…"]` and `add members`, replace it with PUT, delete it.
 */
import { describe, expect, it } from 'vitest'
import { connectedOrg, GROUP, LIST, PATCH_OP, scimAuth, USER, type Directory } from './fixtures.js'

const q = (filter: string) => `filter=${encodeURIComponent(filter)}`

function oktaUser(userName: string, extra: Record<string, unknown> = {}) {
  return {
    schemas: [USER],
    userName,
    name: { givenName: 'Test', familyName: 'User' },
    emails: [{ primary: true, value: userName, type: 'work' }],
    displayName: 'Test User',
    locale: 'en-US',
    externalId: userName === 'test.user@okta.local' ? '00ujl29u0le5T6Aj10h7' : `okta-${userName}`,
    groups: [],
    password: '1mz050nq',
    active: true,
    ...extra,
  }
}

function expectUser(body: Record<string, unknown>, id?: string) {
  expect(body).toMatchObject({
    schemas: [USER],
    id: id ?? expect.any(String),
    meta: { resourceType: 'User', created: expect.any(String), lastModified: expect.any(String), location: expect.stringMatching(/\/scim\/v2\/Users\/[^/]+$/), version: expect.stringMatching(/^W\/".+"$/) },
  })
  expect(body).not.toHaveProperty('password')
}

async function createUser(dir: Directory, userName: string) {
  const created = await dir.post('/Users', oktaUser(userName))
  expect(created.status).toBe(201)
  return created.body.id as string
}

describe('Okta: user provisioning', () => {
  it('lookup, create, import, read, PUT, deactivate, reactivate, as Okta sends them', async () => {
    const auth = scimAuth()
    const { dir, owner } = await connectedOrg(auth)

    const lookup = await dir.get(`/Users?${q('userName eq "test.user@okta.local"')}&startIndex=1&count=100`)
    expect(lookup.status).toBe(200)
    expect(lookup.headers.get('content-type')).toBe('application/scim+json')
    expect(lookup.body).toEqual({ schemas: [LIST], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] })

    auth.clock.advance(1000)
    const created = await dir.post('/Users', oktaUser('test.user@okta.local'))
    expect(created.status).toBe(201)
    expect(created.headers.get('content-type')).toBe('application/scim+json')
    expectUser(created.body)
    expect(created.headers.get('location')).toBe(created.body.meta.location)
    expect(created.headers.get('etag')).toBe(created.body.meta.version)
    expect(created.body).toMatchObject({
      userName: 'test.user@okta.local',
      externalId: '00ujl29u0le5T6Aj10h7',
      name: { givenName: 'Test', familyName: 'User' },
      displayName: 'Test User',
      locale: 'en-US',
      emails: [{ primary: true, value: 'test.user@okta.local', type: 'work' }],
      active: true,
      groups: [],
    })
    const id = created.body.id as string
    // The Gatehouse user: named after the directory, email unverified (no verified domain), a member.
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: id } })).toMatchObject({ email: 'test.user@okta.local', name: 'Test User', emailVerified: false })

    const again = await dir.get(`/Users?${q('userName eq "Test.User@OKTA.local"')}&startIndex=1&count=100`)
    expect(again.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1, Resources: [{ id, userName: 'test.user@okta.local' }] })

    // Import: every member, the owner included, one page.
    const all = await dir.get('/Users?startIndex=1&count=100')
    expect(all.body.totalResults).toBe(2)
    expect(all.body.Resources.map((user: { userName: string }) => user.userName)).toEqual([owner.email, 'test.user@okta.local'])

    const read = await dir.get(`/Users/${id}`)
    expect(read.status).toBe(200)
    expect(read.body).toEqual(created.body)

    const replaced = await dir.put(`/Users/${id}`, { ...oktaUser('test.user@okta.local'), id, name: { givenName: 'Another', familyName: 'User' }, displayName: 'Another User' })
    expect(replaced.status).toBe(200)
    expectUser(replaced.body, id)
    expect(replaced.body).toMatchObject({ name: { givenName: 'Another', familyName: 'User' }, displayName: 'Another User', active: true })
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: id } })).toMatchObject({ name: 'Another User' })

    const deactivated = await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] })
    expect(deactivated.status).toBe(200)
    expectUser(deactivated.body, id)
    expect(deactivated.body.active).toBe(false)
    expect((await dir.get(`/Users/${id}`)).body.active).toBe(false)
    expect((await dir.get(`/Users?${q('active eq false')}`)).body.Resources.map((user: { id: string }) => user.id)).toEqual([id])

    const reactivated = await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: true } }] })
    expect(reactivated.status).toBe(200)
    expect(reactivated.body.active).toBe(true)
    // Password sync on: the password is passed over, never stored or answered.
    const password = await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { password: 't1meMa$heen' } }] })
    expect(password.status).toBe(200)
    expect(password.body).not.toHaveProperty('password')
  })

  it('a second POST of one userName is 409 uniqueness; an unknown id is 404; both as SCIM error bodies', async () => {
    const auth = scimAuth()
    const { dir } = await connectedOrg(auth)
    await createUser(dir, 'dup@okta.local')
    const duplicate = await dir.post('/Users', oktaUser('DUP@okta.local', { externalId: 'other' }))
    expect(duplicate.status).toBe(409)
    expect(duplicate.headers.get('content-type')).toBe('application/scim+json')
    expect(duplicate.body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '409', scimType: 'uniqueness', detail: 'userName is already taken' })
    const missing = await dir.get('/Users/does-not-exist')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404', detail: 'Resource not found' })
    expect((await dir.put('/Users/does-not-exist', oktaUser('x@okta.local'))).status).toBe(404)
    expect((await dir.patch('/Users/does-not-exist', { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] })).status).toBe(404)
  })
})

describe('Okta: group push', () => {
  it('create, import, rename, membership PATCH, PUT and DELETE of a pushed group', async () => {
    const auth = scimAuth()
    const { dir } = await connectedOrg(auth)
    const ada = await createUser(dir, 'ada@okta.local')
    const bo = await createUser(dir, 'bo@okta.local')

    const created = await dir.post('/Groups', { schemas: [GROUP], displayName: 'Test SCIMv2', members: [] })
    expect(created.status).toBe(201)
    expect(created.headers.get('content-type')).toBe('application/scim+json')
    expect(created.body).toMatchObject({ schemas: [GROUP], id: expect.any(String), displayName: 'Test SCIMv2', members: [], meta: { resourceType: 'Group' } })
    const id = created.body.id as string
    expect(created.headers.get('location')).toBe(created.body.meta.location)
    expect(created.body.meta.location).toMatch(new RegExp(`/scim/v2/Groups/${id}$`))
    // The group is a team of the organization.
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'team', where: { field: 'id', value: id } })).toMatchObject({ name: 'Test SCIMv2' })

    const imported = await dir.get('/Groups?startIndex=1&count=100')
    expect(imported.body.schemas).toEqual([LIST])
    // The organization's default team is there too: every team is a group.
    expect(imported.body.Resources.map((group: { displayName: string }) => group.displayName)).toContain('Test SCIMv2')

    const renamed = await dir.patch(`/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { id, displayName: 'Test SCIMv2 renamed' } }] })
    expect(renamed.status).toBe(204)
    expect((await dir.get(`/Groups/${id}`)).body.displayName).toBe('Test SCIMv2 renamed')

    const added = await dir.patch(`/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'add', path: 'members', value: [{ value: ada, display: 'ada@okta.local' }, { value: bo, display: 'bo@okta.local' }] }],
    })
    expect(added.status).toBe(204)
    const withMembers = await dir.get(`/Groups/${id}`)
    expect(withMembers.body.members.map((member: { value: string }) => member.value).sort()).toEqual([ada, bo].sort())
    expect(withMembers.body.members[0]).toMatchObject({ $ref: expect.stringMatching(/\/scim\/v2\/Users\//), type: 'User' })
    expect((await dir.get(`/Users/${ada}`)).body.groups).toEqual([{ value: id, $ref: withMembers.body.meta.location, display: 'Test SCIMv2 renamed', type: 'direct' }])

    const swapped = await dir.patch(`/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'remove', path: `members[value eq "${ada}"]` },
        { op: 'add', path: 'members', value: [{ value: ada, display: 'ada@okta.local' }] },
        { op: 'remove', path: `members[value eq "${bo}"]` },
      ],
    })
    expect(swapped.status).toBe(204)
    expect((await dir.get(`/Groups/${id}`)).body.members.map((member: { value: string }) => member.value)).toEqual([ada])

    const put = await dir.put(`/Groups/${id}`, { schemas: [GROUP], id, displayName: 'Final', members: [{ value: bo, display: 'bo@okta.local' }] })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ id, displayName: 'Final', members: [{ value: bo }] })

    expect((await dir.delete(`/Groups/${id}`)).status).toBe(204)
    expect((await dir.get(`/Groups/${id}`)).status).toBe(404)
    expect(await db.findOne({ model: 'team', where: { field: 'id', value: id } })).toBeNull()
    // The people stay members of the organization.
    expect((await dir.get(`/Users/${bo}`)).status).toBe(200)
  })
})
