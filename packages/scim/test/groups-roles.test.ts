/**
 * Groups as teams under the organization plugin's team rules, roles from
 * group membership (`groupRoles`), and the plugin's start-up checks: the
 * organization plugin required, teams required for groups, the creator role
 * never given by a directory.
 */
import { describe, expect, it } from 'vitest'
import { addMember, connectedOrg, GROUP, newUser, PATCH_OP, scimAuth, SCIM_BASE, USER, type Directory } from './fixtures.js'
import { accountAuth } from '../../core/test/accounts.js'
import { scim } from '../src/plugin.js'

async function roleOf(auth: ReturnType<typeof scimAuth>, organizationId: string, userId: string): Promise<string | undefined> {
  const { db } = await auth.$context
  const member = await db.findOne<{ role: string }>({ model: 'member', where: [{ field: 'organizationId', value: organizationId }, { field: 'userId', value: userId }] })
  return member?.role
}

async function newScimUser(dir: Directory, userName: string): Promise<string> {
  return (await dir.post('/Users', { schemas: [USER], userName })).body.id as string
}

describe('roles from groups', () => {
  it('a member of a mapped group holds its role, of several all of them, of none the default; owners are never touched', async () => {
    const auth = scimAuth({ scim: { groupRoles: { 'Acme Admins': 'admin', Auditors: ['auditor'] } }, organization: { dynamicAccessControl: { enabled: true } } })
    const { dir, org, owner } = await connectedOrg(auth)
    const ada = await newScimUser(dir, 'ada@acme.example')
    const bo = await newScimUser(dir, 'bo@acme.example')
    expect(await roleOf(auth, org.id, ada)).toBe('member')

    const admins = (await dir.post('/Groups', { schemas: [GROUP], displayName: 'Acme Admins', members: [{ value: ada }, { value: owner.id }] })).body.id as string
    expect(await roleOf(auth, org.id, ada)).toBe('admin')
    expect(await roleOf(auth, org.id, owner.id)).toBe('owner')
    const auditors = (await dir.post('/Groups', { schemas: [GROUP], displayName: 'Auditors' })).body.id as string
    await dir.patch(`/Groups/${auditors}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: ada }, { value: bo }] }] })
    expect(await roleOf(auth, org.id, ada)).toBe('admin,auditor')
    expect(await roleOf(auth, org.id, bo)).toBe('auditor')

    await dir.patch(`/Groups/${admins}`, { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members', value: [{ value: ada }] }] })
    expect(await roleOf(auth, org.id, ada)).toBe('auditor')
    // Renamed out of the mapping: its members lose the role.
    await dir.patch(`/Groups/${auditors}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'displayName', value: 'Former auditors' }] })
    expect(await roleOf(auth, org.id, ada)).toBe('member')
    expect(await roleOf(auth, org.id, bo)).toBe('member')
    // Deleted: so are its roles.
    await dir.patch(`/Groups/${admins}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: bo }] }] })
    expect(await roleOf(auth, org.id, bo)).toBe('admin')
    expect((await dir.delete(`/Groups/${admins}`)).status).toBe(204)
    expect(await roleOf(auth, org.id, bo)).toBe('member')
    expect(await roleOf(auth, org.id, owner.id)).toBe('owner')
  })

  it('without a mapping, groups never touch roles', async () => {
    const auth = scimAuth()
    const { dir, org } = await connectedOrg(auth)
    const admin = await newUser(auth)
    await addMember(auth, org.id, admin, 'admin')
    await dir.post('/Groups', { schemas: [GROUP], displayName: 'Anything', members: [{ value: admin.id }] })
    expect(await roleOf(auth, org.id, admin.id)).toBe('admin')
  })
})

describe('team rules', () => {
  it('maximumTeams and maximumMembersPerTeam hold; the last team stays unless removing all is allowed', async () => {
    const auth = scimAuth({ organization: { teams: { enabled: true, maximumTeams: 2, maximumMembersPerTeam: 1 } } })
    const { dir } = await connectedOrg(auth)
    const [ada, bo] = [await newScimUser(dir, 'ada@acme.example'), await newScimUser(dir, 'bo@acme.example')]
    // The default team is the first of two.
    const second = await dir.post('/Groups', { schemas: [GROUP], displayName: 'Second', members: [{ value: ada }] })
    expect(second.status).toBe(201)
    const third = await dir.post('/Groups', { schemas: [GROUP], displayName: 'Third' })
    expect(third.status).toBe(403)
    expect(third.body.detail).toBe('The organization has reached its number of teams')
    const full = await dir.patch(`/Groups/${second.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: bo }] }] })
    expect(full.status).toBe(403)
    expect((await dir.get(`/Groups/${second.body.id}`)).body.members).toEqual([expect.objectContaining({ value: ada })])

    expect((await dir.delete(`/Groups/${second.body.id}`)).status).toBe(204)
    const [last] = (await dir.get('/Groups')).body.Resources
    const refused = await dir.delete(`/Groups/${last.id}`)
    expect(refused.status).toBe(403)
    expect(refused.body.detail).toBe("The organization's last team cannot be removed")
  })

  it('POST takes over a team made in the app, keeping its members, and a claimed one is 409', async () => {
    const auth = scimAuth()
    const { dir } = await connectedOrg(auth)
    const [defaultTeam] = (await dir.get('/Groups')).body.Resources
    const ada = await newScimUser(dir, 'ada@acme.example')
    const { db } = await auth.$context
    await db.create({ model: 'teamMember', data: { teamId: defaultTeam.id, userId: ada } })
    const claimed = await dir.post('/Groups', { schemas: [GROUP], displayName: defaultTeam.displayName, externalId: 'ext-default' })
    expect(claimed.status).toBe(201)
    expect(claimed.body).toMatchObject({ id: defaultTeam.id, externalId: 'ext-default' })
    // The creator joined the default team when the organization was made; both stay.
    expect(claimed.body.members.map((member: { value: string }) => member.value)).toEqual(expect.arrayContaining([ada]))
    expect(claimed.body.members).toHaveLength(2)
    expect((await dir.post('/Groups', { schemas: [GROUP], displayName: defaultTeam.displayName })).status).toBe(409)
  })
})

describe('plugin set-up', () => {
  it('serves users only with groups: false, on an organization plugin without teams', async () => {
    const auth = scimAuth({ scim: { groups: false }, organization: { teams: { enabled: false } } })
    const { dir } = await connectedOrg(auth)
    expect((await dir.post('/Users', { schemas: [USER], userName: 'ada@acme.example' })).body).not.toHaveProperty('groups')
    const groups = await dir.get('/Groups')
    expect(groups.status).toBe(404)
    expect(groups.body).toMatchObject({ status: '404', detail: 'Groups are not served' })
    const types = await (await auth.handler(new Request(`${SCIM_BASE}/ResourceTypes`))).json()
    expect(types.Resources.map((type: { id: string }) => type.id)).toEqual(['User'])
  })

  it('refuses to start without the organization plugin, with groups but no teams, or with a mapping to the creator role', async () => {
    await expect(accountAuth({ plugins: [scim()] }).$context).rejects.toThrow('scim() needs the organization plugin')
    await expect(scimAuth({ organization: { teams: { enabled: false } } }).$context).rejects.toThrow('scim() serves groups as teams')
    await expect(scimAuth({ scim: { groupRoles: { Founders: ['admin', 'owner'] } } }).$context).rejects.toThrow('gives the creator role "owner"')
    await expect(scimAuth({ scim: { defaultRole: 'founder' }, organization: { creatorRole: 'founder' } }).$context).rejects.toThrow('defaultRole cannot be the creator role')
    expect(() => scim({ groups: false, groupRoles: { A: 'admin' } })).toThrow('groupRoles needs groups')
  })
})
