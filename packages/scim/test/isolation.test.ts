/**
 * What a token can and cannot reach (docs/scim.md#security): only its own
 * organization's members and teams, never an owner's membership, and of a
 * user who also belongs elsewhere only this organization's record. Every
 * attempt on another organization's user or team answers exactly as for an
 * id that does not exist.
 */
import { describe, expect, it } from 'vitest'
import { addMember, connectedOrg, GROUP, newUser, PATCH_OP, scimAuth, USER, verifyDomain } from './fixtures.js'

const deactivate = { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }
const q = (filter: string) => `filter=${encodeURIComponent(filter)}`

describe('cross-organization isolation', () => {
  it("another organization's token sees none of this organization's users or teams and changes none", async () => {
    const auth = scimAuth()
    const a = await connectedOrg(auth, 'org-a')
    const b = await connectedOrg(auth, 'org-b')
    const ada = (await a.dir.post('/Users', { schemas: [USER], userName: 'ada@a.example', name: { givenName: 'Ada' } })).body.id as string
    const team = (await a.dir.post('/Groups', { schemas: [GROUP], displayName: 'A team', members: [{ value: ada }] })).body.id as string
    const bGroup = (await b.dir.post('/Groups', { schemas: [GROUP], displayName: 'B team' })).body.id as string

    const notFound = { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404', detail: 'Resource not found' }
    for (const reply of [
      await b.dir.get(`/Users/${ada}`),
      await b.dir.put(`/Users/${ada}`, { schemas: [USER], userName: 'taken@b.example' }),
      await b.dir.patch(`/Users/${ada}`, deactivate),
      await b.dir.delete(`/Users/${ada}`),
      await b.dir.get(`/Groups/${team}`),
      await b.dir.put(`/Groups/${team}`, { schemas: [GROUP], displayName: 'Stolen' }),
      await b.dir.patch(`/Groups/${team}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: b.owner.id }] }] }),
      await b.dir.delete(`/Groups/${team}`),
      await b.dir.get(`/Users/${a.owner.id}`),
    ]) {
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual(notFound)
    }
    for (const filter of [`userName eq "ada@a.example"`, `id eq "${ada}"`, `emails.value co "a.example"`]) {
      expect((await b.dir.get(`/Users?${q(filter)}`)).body.totalResults).toBe(0)
    }
    expect((await b.dir.get(`/Groups?${q('displayName eq "A team"')}`)).body.totalResults).toBe(0)
    const everything = await b.dir.get('/Users')
    expect(everything.body.Resources.map((user: { id: string }) => user.id)).toEqual([b.owner.id])

    // A's member named in B's group: as if the id did not exist.
    const intruder = await b.dir.patch(`/Groups/${bGroup}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: ada }] }] })
    expect(intruder.status).toBe(400)
    expect(intruder.body).toMatchObject({ scimType: 'invalidValue', detail: 'A member is not a User of this organization' })

    // A is as it was.
    const mine = await a.dir.get(`/Users/${ada}`)
    expect(mine.body).toMatchObject({ active: true, userName: 'ada@a.example', groups: [{ value: team }] })
    expect((await a.dir.get(`/Groups/${team}`)).body).toMatchObject({ displayName: 'A team', members: [{ value: ada }] })
  })

  it("a POST naming another organization's user is 409 and touches nothing, unless this organization verified the address's domain", async () => {
    const auth = scimAuth()
    const a = await connectedOrg(auth, 'org-a')
    const b = await connectedOrg(auth, 'org-b')
    const ada = (await a.dir.post('/Users', { schemas: [USER], userName: 'ada@shared.example', displayName: 'Ada A' })).body.id as string
    const { db } = await auth.$context

    const refused = await b.dir.post('/Users', { schemas: [USER], userName: 'ada@shared.example', displayName: 'Mallory' })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ scimType: 'uniqueness' })
    expect(await db.count({ model: 'member', where: { field: 'userId', value: ada } })).toBe(1)

    await verifyDomain(auth, b.org.id, 'shared.example')
    const adopted = await b.dir.post('/Users', { schemas: [USER], userName: 'ada@shared.example', displayName: 'Ada per B', externalId: 'b-1' })
    expect(adopted.status).toBe(201)
    expect(adopted.body).toMatchObject({ id: ada, displayName: 'Ada per B', externalId: 'b-1' })
    // The user row is not B's to change: name and email stay as the directory that created it set them.
    const user = await db.findOne({ model: 'user', where: { field: 'id', value: ada } })
    expect(user).toMatchObject({ name: 'Ada A', email: 'ada@shared.example' })

    const renamed = await b.dir.put(`/Users/${ada}`, { schemas: [USER], userName: 'ada@shared.example', displayName: 'Renamed by B', emails: [{ value: 'mallory@evil.example', primary: true }] })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ displayName: 'Renamed by B', emails: [{ value: 'mallory@evil.example', primary: true }] })
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: ada } })).toMatchObject({ name: 'Ada A', email: 'ada@shared.example' })
    // A, which created it, no longer changes it either while B shares it.
    await a.dir.put(`/Users/${ada}`, { schemas: [USER], userName: 'ada@shared.example', displayName: 'Ada by A again' })
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: ada } })).toMatchObject({ name: 'Ada A' })
    expect((await a.dir.get(`/Users/${ada}`)).body.displayName).toBe('Ada by A again')

    // B suspending and deleting end B's membership only.
    expect((await b.dir.patch(`/Users/${ada}`, deactivate)).body.active).toBe(false)
    expect((await a.dir.get(`/Users/${ada}`)).body.active).toBe(true)
    expect((await b.dir.delete(`/Users/${ada}`)).status).toBe(204)
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: ada } })).not.toBeNull()
    expect((await a.dir.get(`/Users/${ada}`)).status).toBe(200)
  })

  it('an existing account of no organization is taken in only under a verified domain, and never renamed', async () => {
    const auth = scimAuth()
    const { dir, org } = await connectedOrg(auth)
    const bo = await newUser(auth, { email: 'bo@acme.example' })
    const { db } = await auth.$context
    expect((await dir.post('/Users', { schemas: [USER], userName: 'bo@acme.example' })).status).toBe(409)
    expect(await db.count({ model: 'member', where: { field: 'userId', value: bo.id } })).toBe(0)

    await verifyDomain(auth, org.id, 'acme.example')
    const taken = await dir.post('/Users', { schemas: [USER], userName: 'BO@acme.example', displayName: 'Directory Bo' })
    expect(taken.status).toBe(201)
    expect(taken.body.id).toBe(bo.id)
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: bo.id } })).toMatchObject({ name: 'Test User' })
    // Not created by SCIM: deleting the membership leaves the account.
    expect((await dir.delete(`/Users/${bo.id}`)).status).toBe(204)
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: bo.id } })).not.toBeNull()
  })
})

describe('owners', () => {
  it('an owner is listed but never deactivated or removed through SCIM, and its account never renamed', async () => {
    const auth = scimAuth()
    const { dir, owner } = await connectedOrg(auth)
    const { db } = await auth.$context
    const listed = await dir.get(`/Users?${q(`userName eq "${owner.email}"`)}`)
    expect(listed.body.Resources[0]).toMatchObject({ id: owner.id, active: true })

    const deactivated = await dir.patch(`/Users/${owner.id}`, deactivate)
    expect(deactivated.status).toBe(403)
    expect(deactivated.body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '403', detail: 'An owner of the organization cannot be deactivated through SCIM' })
    expect((await dir.put(`/Users/${owner.id}`, { schemas: [USER], userName: owner.email, active: false })).status).toBe(403)
    expect((await dir.delete(`/Users/${owner.id}`)).status).toBe(403)
    expect(await db.count({ model: 'member', where: { field: 'userId', value: owner.id } })).toBe(1)

    const renamed = await dir.put(`/Users/${owner.id}`, { schemas: [USER], userName: owner.email, displayName: 'Renamed' })
    expect(renamed.status).toBe(200)
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: owner.id } })).toMatchObject({ name: 'Test User' })
  })

  it('a user SCIM created and an admin later made owner is no longer the directory\'s to change', async () => {
    const auth = scimAuth()
    const { dir, org } = await connectedOrg(auth)
    const id = (await dir.post('/Users', { schemas: [USER], userName: 'cy@acme.example', displayName: 'Cy' })).body.id as string
    const { db } = await auth.$context
    await db.update({ model: 'member', where: [{ field: 'organizationId', value: org.id }, { field: 'userId', value: id }], update: { role: 'member,owner' } })
    await dir.put(`/Users/${id}`, { schemas: [USER], userName: 'cy@acme.example', displayName: 'Renamed Cy' })
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: id } })).toMatchObject({ name: 'Cy' })
    expect((await dir.patch(`/Users/${id}`, deactivate)).status).toBe(403)
    expect((await dir.delete(`/Users/${id}`)).status).toBe(403)
  })

  it("an admin's membership is the directory's like any member's", async () => {
    const auth = scimAuth()
    const { dir, org } = await connectedOrg(auth)
    const admin = await newUser(auth)
    await addMember(auth, org.id, admin, 'admin')
    expect((await dir.patch(`/Users/${admin.id}`, deactivate)).body.active).toBe(false)
  })
})
