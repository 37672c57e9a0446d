import { describe, expect, it } from 'vitest'
import { get, newUser, orgAuth, post, roster } from './fixtures.js'

const notMember = { code: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION', message: 'You are not a member of this organization' }
const denied = { code: 'YOU_ARE_NOT_ALLOWED_TO_MANAGE_ROLES', message: 'You are not allowed to manage roles in this organization' }

function rolesAuth(maximumRolesPerOrganization?: number) {
  return orgAuth({ dynamicAccessControl: { enabled: true, ...(maximumRolesPerOrganization ? { maximumRolesPerOrganization } : {}) } })
}

describe('roles created at run time', () => {
  it('are off unless enabled', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    expect((await post(auth, 'create-role', r.owner, { organizationId: r.org.id, role: 'x', permission: {} })).status).toBe(404)
  })

  it('owner and admin create roles; member, outsider and anonymous may not', async () => {
    const auth = rolesAuth()
    const r = await roster(auth)
    const create = (caller: typeof r.owner | null, role: string) =>
      post(auth, 'create-role', caller, { organizationId: r.org.id, role, permission: { team: ['create'] } })
    expect(await create(r.owner, 'team-lead')).toMatchObject({
      status: 200,
      body: { organizationId: r.org.id, role: 'team-lead', permission: { team: ['create'] } },
    })
    expect((await create(r.admin, 'helper')).status).toBe(200)
    expect(await create(r.member, 'mine')).toEqual({ status: 403, body: denied })
    expect(await create(r.outsider, 'mine')).toEqual({ status: 403, body: notMember })
    expect((await create(null, 'mine')).status).toBe(401)
    expect(await create(r.owner, 'team-lead')).toEqual({ status: 400, body: { code: 'ROLE_ALREADY_EXISTS', message: 'Role already exists' } })
    expect((await create(r.owner, 'owner')).body.code).toBe('ROLE_ALREADY_EXISTS')
  })

  it('a stored role grants its permissions to the members who hold it, in that organization only', async () => {
    const auth = rolesAuth()
    const r = await roster(auth)
    await post(auth, 'create-role', r.owner, { organizationId: r.org.id, role: 'inviter', permission: { invitation: ['create'] } })
    const memberInvite = () => post(auth, 'invite-member', r.member, { organizationId: r.org.id, email: 'x@example.com', role: 'member' })
    expect((await memberInvite()).status).toBe(403)
    expect((await post(auth, 'update-member-role', r.owner, { organizationId: r.org.id, memberId: r.ids.member, role: ['member', 'inviter'] })).status).toBe(200)
    expect((await memberInvite()).status).toBe(200)
    // Another organization does not know the role.
    const other = await post(auth, 'create', r.outsider, { name: 'Other', slug: 'other' })
    const stranger = await newUser(auth)
    await expect(auth.api.addMember({ body: { userId: stranger.id, role: 'inviter', organizationId: other.body.id } })).rejects.toMatchObject({
      message: 'Role not found',
    })
  })

  it('refuses unknown actions, grants the caller lacks, and roles past the limit', async () => {
    const auth = rolesAuth(2)
    const r = await roster(auth)
    const create = (caller: typeof r.owner, role: string, permission: Record<string, string[]>) =>
      post(auth, 'create-role', caller, { organizationId: r.org.id, role, permission })
    expect(await create(r.owner, 'bad', { organization: ['explode'] })).toEqual({
      status: 400,
      body: { code: 'INVALID_PERMISSION', message: 'Invalid permission' },
    })
    expect((await create(r.owner, 'bad', { nothing: ['x'] })).body.code).toBe('INVALID_PERMISSION')
    expect(await create(r.admin, 'deleter', { organization: ['delete'] })).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE', message: 'You are not allowed to grant this role' },
    })
    expect((await create(r.owner, 'deleter', { organization: ['delete'] })).status).toBe(200)
    // An admin cannot hand itself the owner-made role with organization: delete.
    expect((await post(auth, 'update-member-role', r.admin, { organizationId: r.org.id, memberId: r.ids.admin, role: 'deleter' })).body.code).toBe(
      'YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE',
    )
    expect((await create(r.owner, 'second', {})).status).toBe(200)
    expect(await create(r.owner, 'third', {})).toEqual({
      status: 403,
      body: { code: 'YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ROLES', message: 'You have reached the maximum number of roles' },
    })
  })

  it('list, update and delete; a role that members hold cannot be deleted', async () => {
    const auth = rolesAuth()
    const r = await roster(auth)
    await post(auth, 'create-role', r.owner, { organizationId: r.org.id, role: 'auditor', permission: {} })
    const listed = await get(auth, 'list-roles', r.admin, { organizationId: r.org.id })
    expect(listed.body.map((role: { role: string }) => role.role)).toEqual(['auditor'])
    expect(await get(auth, 'list-roles', r.member, { organizationId: r.org.id })).toEqual({ status: 403, body: denied })
    expect(await get(auth, 'list-roles', r.outsider, { organizationId: r.org.id })).toEqual({ status: 403, body: notMember })

    const update = (caller: typeof r.owner, roleName: string, permission: Record<string, string[]>) =>
      post(auth, 'update-role', caller, { organizationId: r.org.id, roleName, data: { permission } })
    expect(await update(r.admin, 'auditor', { team: ['update'] })).toMatchObject({ status: 200, body: { permission: { team: ['update'] } } })
    expect(await update(r.member, 'auditor', {})).toEqual({ status: 403, body: denied })
    expect(await update(r.owner, 'owner', {})).toEqual({ status: 400, body: { code: 'ROLE_NOT_FOUND', message: 'Role not found' } })

    await post(auth, 'update-member-role', r.owner, { organizationId: r.org.id, memberId: r.ids.member, role: 'member,auditor' })
    const remove = (caller: typeof r.owner) => post(auth, 'delete-role', caller, { organizationId: r.org.id, roleName: 'auditor' })
    expect(await remove(r.owner)).toEqual({
      status: 400,
      body: { code: 'ROLE_IS_ASSIGNED_TO_MEMBERS', message: 'Cannot delete a role that is assigned to members' },
    })
    await post(auth, 'update-member-role', r.owner, { organizationId: r.org.id, memberId: r.ids.member, role: 'member' })
    expect(await remove(r.member)).toEqual({ status: 403, body: denied })
    expect(await remove(r.admin)).toEqual({ status: 200, body: { success: true } })
    expect((await remove(r.owner)).body.code).toBe('ROLE_NOT_FOUND')
  })
})
