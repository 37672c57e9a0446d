/**
 * Who may change or remove whom (docs/organization.md#security). Holding
 * `member: update` or `member: delete` is not enough: the caller's roles must
 * also grant everything the target's roles grant, so a narrow role (an "hr"
 * that may only manage members) cannot demote or remove the admins above it,
 * nor empty a stronger run-time role its holders depend on. The creator role
 * keeps its own rules: its holders act on anyone, only they act on each other.
 */
import { describe, expect, it } from 'vitest'
import { createAccessControl } from '../src/access/access-control.js'
import { adminRole, defaultStatements, memberRole, ownerRole } from '../src/access/statements.js'
import { addMember, createOrg, newUser, orgAuth, post, type OrgAuth, type TestUser } from './fixtures.js'

const ac = createAccessControl(defaultStatements)
const roles = {
  owner: ownerRole,
  admin: adminRole,
  member: memberRole,
  hr: ac.newRole({ member: ['update', 'delete'], invitation: ['create'], ac: ['read', 'update'] }),
}

const cannotUpdate = { code: 'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER', message: 'You are not allowed to update this member' }
const cannotDelete = { code: 'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER', message: 'You are not allowed to delete this member' }
const cannotGrant = { code: 'YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE', message: 'You are not allowed to grant this role' }

async function staff(auth: OrgAuth) {
  const owner = await newUser(auth)
  const org = await createOrg(auth, owner)
  const join = async (role: string) => {
    const user = await newUser(auth)
    const row = await addMember(auth, org.id, user, role)
    return { user, id: String(row.id) }
  }
  return { org, owner, admin: await join('admin'), hr: await join('hr'), member: await join('member'), other: await join('member') }
}

async function roleOf(auth: OrgAuth, memberId: string) {
  const { db } = await auth.$context
  return (await db.findOne<{ role: string; id: string }>({ model: 'member', where: { field: 'id', value: memberId } }))?.role
}

describe('a caller changes or removes only members it outranks', () => {
  it('a role holding only member:update cannot demote an admin; it may change members within its own grants', async () => {
    const auth = orgAuth({ roles })
    const s = await staff(auth)
    const update = (caller: TestUser, memberId: string, role: string) => post(auth, 'update-member-role', caller, { organizationId: s.org.id, memberId, role })
    expect(await update(s.hr.user, s.admin.id, 'member')).toEqual({ status: 403, body: cannotUpdate })
    expect(await roleOf(auth, s.admin.id)).toBe('admin')
    // An admin's roles grant no more than its own: the hr may not hand it out either.
    expect(await update(s.hr.user, s.member.id, 'admin')).toEqual({ status: 403, body: cannotGrant })
    expect(await update(s.hr.user, s.member.id, 'hr')).toMatchObject({ status: 200, body: { role: 'hr' } })
    expect(await update(s.hr.user, s.member.id, 'member')).toMatchObject({ status: 200, body: { role: 'member' } })
    // The admin's grants cover the hr's: it may.
    expect(await update(s.admin.user, s.hr.id, 'member')).toMatchObject({ status: 200, body: { role: 'member' } })
  })

  it('a role holding only member:delete cannot remove an admin; it may remove members within its own grants', async () => {
    const auth = orgAuth({ roles })
    const s = await staff(auth)
    const remove = (caller: TestUser, memberIdOrEmail: string) => post(auth, 'remove-member', caller, { organizationId: s.org.id, memberIdOrEmail })
    expect(await remove(s.hr.user, s.admin.id)).toEqual({ status: 403, body: cannotDelete })
    expect(await remove(s.hr.user, s.admin.user.email)).toEqual({ status: 403, body: cannotDelete })
    expect(await roleOf(auth, s.admin.id)).toBe('admin')
    expect(await remove(s.hr.user, s.member.id)).toMatchObject({ status: 200, body: { member: { id: s.member.id } } })
    expect(await remove(s.admin.user, s.hr.id)).toMatchObject({ status: 200, body: { member: { id: s.hr.id } } })
  })

  it('several roles count together: a member holding hr and one more grant is out of an hr’s reach', async () => {
    const auth = orgAuth({ roles })
    const s = await staff(auth)
    await post(auth, 'update-member-role', s.owner, { organizationId: s.org.id, memberId: s.other.id, role: ['hr', 'admin'] })
    expect(await post(auth, 'update-member-role', s.hr.user, { organizationId: s.org.id, memberId: s.other.id, role: 'hr' })).toEqual({
      status: 403,
      body: cannotUpdate,
    })
    expect(await post(auth, 'remove-member', s.hr.user, { organizationId: s.org.id, memberIdOrEmail: s.other.id })).toEqual({ status: 403, body: cannotDelete })
  })

  it('the creator role keeps its rules: an owner acts on anyone, an admin on no owner', async () => {
    const auth = orgAuth({ roles })
    const s = await staff(auth)
    expect((await post(auth, 'update-member-role', s.owner, { organizationId: s.org.id, memberId: s.admin.id, role: 'hr' })).status).toBe(200)
    expect((await post(auth, 'update-member-role', s.owner, { organizationId: s.org.id, memberId: s.other.id, role: 'owner' })).status).toBe(200)
    expect(await post(auth, 'remove-member', s.hr.user, { organizationId: s.org.id, memberIdOrEmail: s.other.id })).toEqual({ status: 403, body: cannotDelete })
    expect((await post(auth, 'remove-member', s.owner, { organizationId: s.org.id, memberIdOrEmail: s.other.id })).status).toBe(200)
  })

  it('invitations grant nothing beyond the inviter’s own roles', async () => {
    const auth = orgAuth({ roles })
    const s = await staff(auth)
    const invite = (role: string) => post(auth, 'invite-member', s.hr.user, { organizationId: s.org.id, email: `new-${role}@example.com`, role })
    expect(await invite('admin')).toEqual({ status: 403, body: cannotGrant })
    expect((await invite('hr')).status).toBe(200)
  })
})

describe('run-time roles: a caller edits only roles within its own grants', () => {
  it('an hr with ac:update cannot empty a stronger role, nor demote its holder one by one', async () => {
    const auth = orgAuth({ roles, dynamicAccessControl: { enabled: true } })
    const s = await staff(auth)
    const created = await post(auth, 'create-role', s.owner, { organizationId: s.org.id, role: 'lead', permission: { organization: ['update'], member: ['update'] } })
    expect(created.status).toBe(200)
    expect((await post(auth, 'create-role', s.owner, { organizationId: s.org.id, role: 'helper', permission: { member: ['update'] } })).status).toBe(200)
    await post(auth, 'update-member-role', s.owner, { organizationId: s.org.id, memberId: s.other.id, role: 'lead' })

    const edit = (role: string, permission: Record<string, string[]>) =>
      post(auth, 'update-role', s.hr.user, { organizationId: s.org.id, roleName: role, data: { permission } })
    expect(await edit('lead', {})).toEqual({ status: 403, body: cannotGrant })
    expect(await post(auth, 'update-member-role', s.hr.user, { organizationId: s.org.id, memberId: s.other.id, role: 'member' })).toEqual({
      status: 403,
      body: cannotUpdate,
    })
    expect(await edit('helper', { member: ['delete'] })).toMatchObject({ status: 200, body: { permission: { member: ['delete'] } } })
    // An owner edits any run-time role, within what it grants itself.
    expect((await post(auth, 'update-role', s.owner, { organizationId: s.org.id, roleName: 'lead', data: { permission: {} } })).status).toBe(200)
  })
})
