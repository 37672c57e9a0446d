import { describe, expect, it } from 'vitest'
import { createAccessControl } from '../src/access/access-control.js'
import { defaultStatements } from '../src/access/statements.js'
import { addMember, createOrg, get, newUser, orgAuth, post, roster, sessionOf } from './fixtures.js'

const notMember = { code: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION', message: 'You are not a member of this organization' }

describe('add-member (server only)', () => {
  it('is not routed over HTTP', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    expect((await post(auth, 'add-member', r.owner, { userId: r.outsider.id, role: 'member', organizationId: r.org.id })).status).toBe(404)
  })

  it('adds a member with one or several roles, once', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const member = await auth.api.addMember({ body: { userId: r.outsider.id, role: ['admin', 'member'], organizationId: r.org.id } })
    expect(member).toMatchObject({ userId: r.outsider.id, organizationId: r.org.id, role: 'admin,member' })
    await expect(auth.api.addMember({ body: { userId: r.outsider.id, role: 'member', organizationId: r.org.id } })).rejects.toMatchObject({
      status: 400,
      message: 'User is already a member of this organization',
    })
  })

  it('refuses unknown roles and users, a missing organization id, and a full organization (403)', async () => {
    const auth = orgAuth({ membershipLimit: 3 })
    const r = await roster(auth)
    const extra = await newUser(auth)
    await expect(auth.api.addMember({ body: { userId: extra.id, role: 'wizard', organizationId: r.org.id } })).rejects.toMatchObject({
      status: 400,
      message: 'Role not found',
    })
    await expect(auth.api.addMember({ body: { userId: 'nobody', role: 'member', organizationId: r.org.id } })).rejects.toMatchObject({
      status: 401,
      message: 'User not found',
    })
    await expect(auth.api.addMember({ body: { userId: extra.id, role: 'member' } })).rejects.toMatchObject({
      status: 400,
      message: 'Organization ID is required',
    })
    await expect(auth.api.addMember({ body: { userId: extra.id, role: 'member', organizationId: r.org.id } })).rejects.toMatchObject({
      status: 403,
      code: 'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED',
      message: 'Organization membership limit reached',
    })
  })
})

describe('GET /organization/list-members', () => {
  it('lists members with their users and the total, for members only', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const reply = await get(auth, 'list-members', r.member, { organizationId: r.org.id })
    expect(reply.status).toBe(200)
    expect(reply.body.total).toBe(3)
    expect(reply.body.members.map((m: { user: { email: string } }) => m.user.email)).toEqual([r.owner.email, r.admin.email, r.member.email])
    const page = await get(auth, 'list-members', r.owner, { limit: '1', offset: '1' })
    expect(page.body.members.map((m: { role: string }) => m.role)).toEqual(['admin'])
    expect(await get(auth, 'list-members', r.outsider, { organizationId: r.org.id })).toEqual({ status: 403, body: notMember })
    expect((await get(auth, 'list-members', null, { organizationId: r.org.id })).status).toBe(401)
  })
})

describe('POST /organization/update-member-role', () => {
  it('owner and admin may change roles; member, outsider and anonymous may not', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const update = (caller: typeof r.owner | null, memberId: string, role: unknown) =>
      post(auth, 'update-member-role', caller, { organizationId: r.org.id, memberId, role })
    expect(await update(r.owner, r.ids.member, 'admin')).toMatchObject({ status: 200, body: { id: r.ids.member, role: 'admin' } })
    expect(await update(r.admin, r.ids.member, ['member', 'admin'])).toMatchObject({ status: 200, body: { role: 'member,admin' } })
    await update(r.owner, r.ids.member, 'member')
    expect(await update(r.member, r.ids.admin, 'member')).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER', message: 'You are not allowed to update this member' },
    })
    expect(await update(r.outsider, r.ids.member, 'admin')).toEqual({ status: 403, body: notMember })
    expect((await update(null, r.ids.member, 'admin')).status).toBe(401)
  })

  it('only an owner grants or takes the owner role, and the last owner stays owner', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const update = (caller: typeof r.owner, memberId: string, role: string) => post(auth, 'update-member-role', caller, { organizationId: r.org.id, memberId, role })
    const forbidden = { code: 'YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE', message: 'You are not allowed to grant this role' }
    expect(await update(r.admin, r.ids.admin, 'owner')).toEqual({ status: 403, body: forbidden })
    expect(await update(r.admin, r.ids.owner, 'member')).toEqual({ status: 403, body: forbidden })
    expect(await update(r.owner, r.ids.owner, 'admin')).toEqual({
      status: 400,
      body: { code: 'YOU_CANNOT_REMOVE_THE_LAST_OWNER', message: 'You cannot remove the last owner of the organization' },
    })
    expect((await update(r.owner, r.ids.admin, 'owner')).status).toBe(200)
    expect((await update(r.owner, r.ids.owner, 'admin')).status).toBe(200)
  })

  it('refuses unknown roles and members of other organizations', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const other = await createOrg(auth, r.outsider)
    expect(await post(auth, 'update-member-role', r.owner, { organizationId: r.org.id, memberId: r.ids.member, role: 'wizard' })).toEqual({
      status: 400,
      body: { code: 'ROLE_NOT_FOUND', message: 'Role not found' },
    })
    const foreign = other.members[0]?.id as string
    expect(await post(auth, 'update-member-role', r.owner, { organizationId: r.org.id, memberId: foreign, role: 'member' })).toEqual({
      status: 400,
      body: { code: 'MEMBER_NOT_FOUND', message: 'Member not found' },
    })
  })
})

describe('POST /organization/remove-member', () => {
  it('owner and admin remove members by id or email; member, outsider and anonymous may not', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const extra = await newUser(auth, { email: 'Extra.Person@example.com' })
    await addMember(auth, r.org.id, extra)
    const remove = (caller: typeof r.owner | null, memberIdOrEmail: string) =>
      post(auth, 'remove-member', caller, { organizationId: r.org.id, memberIdOrEmail })
    expect(await remove(r.member, r.ids.admin)).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER', message: 'You are not allowed to delete this member' },
    })
    expect(await remove(r.outsider, r.ids.member)).toEqual({ status: 403, body: notMember })
    expect((await remove(null, r.ids.member)).status).toBe(401)

    await post(auth, 'set-active', r.member, { organizationId: r.org.id })
    expect(await remove(r.admin, r.ids.member)).toMatchObject({ status: 200, body: { member: { id: r.ids.member, userId: r.member.id } } })
    expect((await sessionOf(auth, r.member))?.activeOrganizationId).toBeNull()
    expect(await remove(r.owner, 'EXTRA.person@example.com')).toMatchObject({ status: 200, body: { member: { userId: extra.id } } })
    expect(await remove(r.owner, r.ids.member)).toEqual({ status: 400, body: { code: 'MEMBER_NOT_FOUND', message: 'Member not found' } })
    expect(await remove(r.owner, 'nobody@example.com')).toEqual({ status: 400, body: { code: 'MEMBER_NOT_FOUND', message: 'Member not found' } })
  })

  it('an admin cannot remove an owner, and the last owner cannot be removed', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    expect((await post(auth, 'remove-member', r.admin, { organizationId: r.org.id, memberIdOrEmail: r.ids.owner })).status).toBe(403)
    expect(await post(auth, 'remove-member', r.owner, { organizationId: r.org.id, memberIdOrEmail: r.ids.owner })).toEqual({
      status: 400,
      body: { code: 'YOU_CANNOT_REMOVE_THE_LAST_OWNER', message: 'You cannot remove the last owner of the organization' },
    })
    const { db } = await auth.$context
    expect(await db.count({ model: 'member', where: { field: 'organizationId', value: r.org.id } })).toBe(3)
  })
})

describe('POST /organization/leave', () => {
  it('a member leaves and the organization stops being active; the only owner cannot', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    await post(auth, 'set-active', r.member, { organizationId: r.org.id })
    expect(await post(auth, 'leave', r.member, { organizationId: r.org.id })).toMatchObject({ status: 200, body: { userId: r.member.id } })
    expect((await sessionOf(auth, r.member))?.activeOrganizationId).toBeNull()
    expect(await post(auth, 'leave', r.owner, { organizationId: r.org.id })).toEqual({
      status: 400,
      body: {
        code: 'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
        message: 'You cannot leave the organization as the only owner',
      },
    })
    expect(await post(auth, 'leave', r.outsider, { organizationId: r.org.id })).toEqual({ status: 403, body: notMember })
    expect((await post(auth, 'leave', null, { organizationId: r.org.id })).status).toBe(401)
    await post(auth, 'update-member-role', r.owner, { organizationId: r.org.id, memberId: r.ids.admin, role: 'owner' })
    expect((await post(auth, 'leave', r.owner, { organizationId: r.org.id })).status).toBe(200)
  })
})

describe('GET /organization/get-active-member', () => {
  it('answers the caller’s member row in the active organization', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    expect(await get(auth, 'get-active-member', r.member)).toEqual({
      status: 400,
      body: { code: 'NO_ACTIVE_ORGANIZATION', message: 'No active organization' },
    })
    await post(auth, 'set-active', r.member, { organizationId: r.org.id })
    expect(await get(auth, 'get-active-member', r.member)).toMatchObject({
      status: 200,
      body: { id: r.ids.member, role: 'member', user: { id: r.member.id, email: r.member.email } },
    })
    expect((await get(auth, 'get-active-member', r.owner)).body.role).toBe('owner')
    expect((await get(auth, 'get-active-member', null)).status).toBe(401)
    // Removed behind the session's back: the active id alone grants nothing.
    const { db } = await auth.$context
    await db.delete({ model: 'member', where: { field: 'id', value: r.ids.member } })
    expect(await get(auth, 'get-active-member', r.member)).toEqual({ status: 403, body: notMember })
  })
})

describe('POST /organization/has-permission', () => {
  it('answers what the routes enforce, per role', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const ask = (caller: typeof r.owner | null, permissions: Record<string, string[]>) =>
      post(auth, 'has-permission', caller, { organizationId: r.org.id, permissions })
    expect((await ask(r.owner, { organization: ['delete'] })).body).toEqual({ success: true })
    expect((await ask(r.admin, { organization: ['delete'] })).body).toEqual({ success: false })
    expect((await ask(r.admin, { member: ['delete'], invitation: ['create', 'cancel'] })).body).toEqual({ success: true })
    expect((await ask(r.member, { member: ['delete'] })).body).toEqual({ success: false })
    expect((await ask(r.outsider, { member: ['delete'] })).body).toEqual({ success: false })
    expect((await ask(null, { member: ['delete'] })).status).toBe(401)
  })

  it('applications define their own roles; several roles grant their union', async () => {
    const ac = createAccessControl({ ...defaultStatements, project: ['create', 'archive'] })
    const roles = {
      owner: ac.newRole({ organization: ['update', 'delete'], member: ['create', 'update', 'delete'], invitation: ['create', 'cancel'] }),
      member: ac.newRole({}),
      builder: ac.newRole({ project: ['create'] }),
      archivist: ac.newRole({ project: ['archive'] }),
    }
    const auth = orgAuth({ ac, roles })
    const owner = await newUser(auth)
    const dev = await newUser(auth)
    const org = await createOrg(auth, owner)
    await auth.api.addMember({ body: { userId: dev.id, role: 'builder,archivist', organizationId: org.id } })
    const ask = (permissions: Record<string, string[]>) => post(auth, 'has-permission', dev, { organizationId: org.id, permissions })
    expect((await ask({ project: ['create', 'archive'] })).body).toEqual({ success: true })
    expect((await ask({ project: ['create'], member: ['delete'] })).body).toEqual({ success: false })
    // "admin" is not a role of this application.
    await expect(auth.api.addMember({ body: { userId: (await newUser(auth)).id, role: 'admin', organizationId: org.id } })).rejects.toMatchObject({
      message: 'Role not found',
    })
  })
})
