/**
 * The requests Microsoft documents for the Entra ID provisioning service
 * ("Tutorial: Develop and plan provisioning for a SCIM endpoint"), in its
 * order, with the forms Entra really sends: a `userName` that is no address
 * (the email is in `emails`), the enterprise extension, `Replace`/`Add`/`Remove`
 * capitalised, `emails[type eq "work"].value` paths, `"False"` strings,
 * path-less value objects, a manager given as a bare id, groups looked up
 * with `excludedAttributes=members`, members added and removed as
 * `[{"$ref":null,"value":…}]`, 204 for group PATCH and DELETE.
 */
import { describe, expect, it } from 'vitest'
import { connectedOrg, ENTERPRISE, ERROR, GROUP, LIST, PATCH_OP, scimAuth, USER, type Directory } from './fixtures.js'

const q = (filter: string) => `filter=${encodeURIComponent(filter)}`

function entraUser(suffix: string) {
  return {
    schemas: [USER, ENTERPRISE],
    externalId: `0a21f0f2-8d2a-4f8e-bf98-${suffix}`,
    userName: `Test_User_${suffix}`,
    active: true,
    emails: [{ primary: true, type: 'work', value: `Test_User_${suffix}@testuser.com` }],
    meta: { resourceType: 'User' },
    name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
    roles: [],
  }
}

async function create(dir: Directory, suffix: string): Promise<string> {
  const created = await dir.post('/Users', entraUser(suffix))
  expect(created.status).toBe(201)
  return created.body.id as string
}

describe('Microsoft Entra ID: user operations', () => {
  it('create, get, get by query, update multi- and single-valued properties, disable, delete', async () => {
    const auth = scimAuth()
    const { dir } = await connectedOrg(auth)
    const suffix = 'ab6490ee1e48'

    const zero = await dir.get(`/Users?${q('userName eq "non-existent user"')}`)
    expect(zero.status).toBe(200)
    expect(zero.body).toEqual({ schemas: [LIST], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] })

    const created = await dir.post('/Users', entraUser(suffix))
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(created.body.meta.location)
    expect(created.body).toMatchObject({
      schemas: [USER],
      id: expect.any(String),
      externalId: `0a21f0f2-8d2a-4f8e-bf98-${suffix}`,
      userName: `Test_User_${suffix}`,
      active: true,
      emails: [{ primary: true, type: 'work', value: `Test_User_${suffix}@testuser.com` }],
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      meta: { resourceType: 'User' },
    })
    const id = created.body.id as string
    // userName is no address here: the Gatehouse user gets the primary email.
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: id } })).toMatchObject({ email: `test_user_${suffix}@testuser.com`, name: 'givenName familyName' })

    expect((await dir.get(`/Users/${id}`)).body).toEqual(created.body)
    const byQuery = await dir.get(`/Users?${q(`userName eq "Test_User_${suffix}"`)}`)
    expect(byQuery.body).toMatchObject({ schemas: [LIST], totalResults: 1, itemsPerPage: 1, startIndex: 1, Resources: [{ id }] })
    const byExternalId = await dir.get(`/Users?${q(`externalId eq "0a21f0f2-8d2a-4f8e-bf98-${suffix}"`)}`)
    expect(byExternalId.body.Resources.map((user: { id: string }) => user.id)).toEqual([id])
    const byWorkEmail = await dir.get(`/Users?${q(`emails[type eq "work"].value eq "test_user_${suffix}@testuser.com"`)}`)
    expect(byWorkEmail.body.totalResults).toBe(1)

    const multi = await dir.patch(`/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      ],
    })
    expect(multi.status).toBe(200)
    expect(multi.body).toMatchObject({ id, emails: [{ primary: true, type: 'work', value: 'updatedEmail@microsoft.com' }], name: { familyName: 'updatedFamilyName', givenName: 'givenName' } })
    // SCIM created the user and it belongs to this organization only: its email follows the directory.
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: id } })).toMatchObject({ email: 'updatedemail@microsoft.com' })

    const single = await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'userName', value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com' }] })
    expect(single.status).toBe(200)
    expect(single.body.userName).toBe('5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com')
    expect((await dir.get(`/Users?${q('userName eq "5B50642D-79FC-4410-9E90-4C077CDD1A59@testuser.com"')}`)).body.totalResults).toBe(1)

    const manager = await create(dir, 'manager00001')
    const managed = await dir.patch(`/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Add', path: `${ENTERPRISE}:manager`, value: manager },
        { op: 'Add', path: `${ENTERPRISE}:department`, value: 'Human Resources US' },
      ],
    })
    expect(managed.status).toBe(200)
    expect(managed.body.schemas).toEqual([USER, ENTERPRISE])
    expect(managed.body[ENTERPRISE]).toEqual({ manager: { value: manager }, department: 'Human Resources US' })
    const unmanaged = await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: `${ENTERPRISE}:manager` }] })
    expect(unmanaged.body[ENTERPRISE]).toEqual({ department: 'Human Resources US' })

    // Disable: Entra's "False" string, and the path-less form.
    const disabled = await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] })
    expect(disabled.status).toBe(200)
    expect(disabled.body.active).toBe(false)
    const byFilter = await dir.get(`/Users?${q(`userName eq "5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com"`)}`)
    expect(byFilter.body.Resources[0].active).toBe(false)
    const enabled = await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', value: { active: 'True' } }] })
    expect(enabled.body.active).toBe(true)
    const disabledAgain = await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: false }] })
    expect(disabledAgain.body.active).toBe(false)

    const deleted = await dir.delete(`/Users/${id}`)
    expect(deleted.status).toBe(204)
    expect(deleted.body).toBeNull()
    expect((await dir.get(`/Users/${id}`)).status).toBe(404)
    // SCIM created it and it was in no other organization: the user row goes too.
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: id } })).toBeNull()
    expect((await dir.delete(`/Users/${id}`)).status).toBe(404)
  })

  it('a "False" that is no boolean, and a body that is no JSON, are SCIM 400s', async () => {
    const auth = scimAuth()
    const { dir } = await connectedOrg(auth)
    const id = await create(dir, 'badvalues001')
    const notBoolean = await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'Nope' }] })
    expect(notBoolean.status).toBe(400)
    expect(notBoolean.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidValue' })
    const notJson = await dir.call('POST', '/Users', '{"schemas":')
    expect(notJson.status).toBe(400)
    expect(notJson.body).toMatchObject({ schemas: [ERROR], scimType: 'invalidSyntax' })
    const noSchema = await dir.post('/Users', { userName: 'x' })
    expect(noSchema.body).toMatchObject({ status: '400', scimType: 'invalidSyntax' })
    const form = await dir.call('POST', '/Users', 'userName=x', { 'content-type': 'application/x-www-form-urlencoded' })
    expect(form.status).toBe(415)
    expect(form.body).toMatchObject({ schemas: [ERROR], status: '415' })
  })
})

describe('Microsoft Entra ID: group operations', () => {
  it('create, get without members, get by displayName, update name, add and remove members, delete', async () => {
    const auth = scimAuth()
    const { dir } = await connectedOrg(auth)
    const member = await create(dir, 'groupmember1')

    const created = await dir.post('/Groups', {
      schemas: [GROUP, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
      meta: { resourceType: 'Group' },
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ schemas: [GROUP], id: expect.any(String), externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', displayName: 'displayName', members: [], meta: { resourceType: 'Group' } })
    const id = created.body.id as string

    const got = await dir.get(`/Groups/${id}?excludedAttributes=members`)
    expect(got.status).toBe(200)
    expect(got.body).not.toHaveProperty('members')
    expect(got.body).toMatchObject({ id, displayName: 'displayName', externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159' })
    expect(got.headers.get('etag')).toBe(got.body.meta.version)

    const byName = await dir.get(`/Groups?excludedAttributes=members&${q('displayName eq "displayName"')}`)
    expect(byName.body).toMatchObject({ schemas: [LIST], totalResults: 1, Resources: [{ id, displayName: 'displayName' }] })
    expect(byName.body.Resources[0]).not.toHaveProperty('members')

    const renamed = await dir.patch(`/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59updatedDisplayName' }] })
    expect(renamed.status).toBe(204)
    expect(renamed.body).toBeNull()

    const added = await dir.patch(`/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: member }] }] })
    expect(added.status).toBe(204)
    const withMember = await dir.get(`/Groups?${q(`id eq "${id}" and members[value eq "${member}"]`)}&excludedAttributes=members`)
    expect(withMember.body.totalResults).toBe(1)
    expect(withMember.body.Resources[0]).not.toHaveProperty('members')
    expect((await dir.get(`/Groups/${id}`)).body.members).toEqual([{ value: member, $ref: expect.stringContaining(`/Users/${member}`), display: 'givenName familyName', type: 'User' }])

    const removed = await dir.patch(`/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: member }] }] })
    expect(removed.status).toBe(204)
    expect((await dir.get(`/Groups/${id}`)).body.members).toEqual([])
    expect((await dir.get(`/Groups?${q(`id eq "${id}" and members[value eq "${member}"]`)}`)).body.totalResults).toBe(0)

    expect((await dir.delete(`/Groups/${id}`)).status).toBe(204)
    expect((await dir.get(`/Groups/${id}?excludedAttributes=members`)).status).toBe(404)
  })

  it('a second group of one name is 409; a member that is no user of the organization is 400', async () => {
    const auth = scimAuth()
    const { dir } = await connectedOrg(auth)
    expect((await dir.post('/Groups', { schemas: [GROUP], displayName: 'Sales' })).status).toBe(201)
    const duplicate = await dir.post('/Groups', { schemas: [GROUP], displayName: 'sales' })
    expect(duplicate.status).toBe(409)
    expect(duplicate.body).toMatchObject({ scimType: 'uniqueness' })
    const stranger = await dir.post('/Groups', { schemas: [GROUP], displayName: 'Support', members: [{ value: 'no-such-user' }] })
    expect(stranger.status).toBe(400)
    expect(stranger.body).toMatchObject({ scimType: 'invalidValue', detail: 'A member is not a User of this organization' })
  })
})
