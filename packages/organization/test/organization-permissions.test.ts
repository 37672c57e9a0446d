import { describe, expect, it } from 'vitest'
import { createOrg, get, newUser, orgAuth, post, roster, sessionOf } from './fixtures.js'

describe('POST /organization/update', () => {
  it('owner and admin may update; member, outsider and anonymous may not', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const update = (caller: typeof r.owner | null, name: string) => post(auth, 'update', caller, { organizationId: r.org.id, data: { name } })
    expect(await update(r.owner, 'By owner')).toMatchObject({ status: 200, body: { id: r.org.id, name: 'By owner' } })
    expect(await update(r.admin, 'By admin')).toMatchObject({ status: 200, body: { name: 'By admin' } })
    expect(await update(r.member, 'By member')).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION', message: 'You are not allowed to update this organization' },
    })
    expect(await update(r.outsider, 'By outsider')).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION', message: 'You are not a member of this organization' },
    })
    expect((await update(null, 'Anon')).status).toBe(401)
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'organization', where: { field: 'id', value: r.org.id } })).toMatchObject({ name: 'By admin' })
  })

  it('uses the active organization, changes slug, logo and metadata, and refuses a taken slug', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    await createOrg(auth, ada, 'taken')
    const org = await createOrg(auth, ada, 'mine')
    const reply = await post(auth, 'update', ada, { data: { slug: 'renamed', logo: 'l.png', metadata: { a: 1 } } })
    expect(reply).toMatchObject({ status: 200, body: { id: org.id, slug: 'renamed', logo: 'l.png', metadata: { a: 1 } } })
    expect(await post(auth, 'update', ada, { data: { slug: 'taken' } })).toEqual({
      status: 400,
      body: { code: 'SLUG_IS_TAKEN', message: 'slug is taken' },
    })
    expect(await post(auth, 'update', ada, { organizationId: 'missing', data: { name: 'x' } })).toEqual({
      status: 400,
      body: { code: 'ORGANIZATION_NOT_FOUND', message: 'Organization not found' },
    })
  })

  it('answers 400 "No active organization" when none is named or active', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    expect(await post(auth, 'update', ada, { data: { name: 'x' } })).toEqual({
      status: 400,
      body: { code: 'NO_ACTIVE_ORGANIZATION', message: 'No active organization' },
    })
  })
})

describe('POST /organization/delete', () => {
  it('only the owner may delete; admin, member, outsider and anonymous may not', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    const remove = (caller: typeof r.owner | null) => post(auth, 'delete', caller, { organizationId: r.org.id })
    const denied = { code: 'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION', message: 'You are not allowed to delete this organization' }
    expect(await remove(r.admin)).toEqual({ status: 403, body: denied })
    expect(await remove(r.member)).toEqual({ status: 403, body: denied })
    expect((await remove(r.outsider)).body.code).toBe('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
    expect((await remove(null)).status).toBe(401)
    const deleted = await remove(r.owner)
    expect(deleted).toMatchObject({ status: 200, body: { id: r.org.id, slug: r.org.slug } })
    expect((await remove(r.owner)).body.code).toBe('ORGANIZATION_NOT_FOUND')
  })

  it('removes members and invitations in one go and clears the organization from every session', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    await post(auth, 'set-active', r.member, { organizationId: r.org.id })
    const invite = await post(auth, 'invite-member', r.owner, { email: 'new@example.com', role: 'member' })
    expect(invite.status).toBe(200)
    expect(await post(auth, 'delete', r.owner, { organizationId: r.org.id })).toMatchObject({ status: 200 })
    const { db } = await auth.$context
    const inOrg = { field: 'organizationId', value: r.org.id }
    expect(await db.count({ model: 'member', where: inOrg })).toBe(0)
    expect(await db.count({ model: 'invitation', where: inOrg })).toBe(0)
    expect((await sessionOf(auth, r.owner))?.activeOrganizationId).toBeNull()
    expect((await sessionOf(auth, r.member))?.activeOrganizationId).toBeNull()
    expect((await get(auth, 'list', r.member)).body).toEqual([])
  })

  it('a vetoing hook rolls the whole deletion back', async () => {
    const { AuthError } = await import('@gatehouse/core')
    const { OrganizationErrors } = await import('../src/errors.js')
    const auth = orgAuth({
      hooks: {
        member: {
          delete: {
            before: (row) => {
              if (row.role === 'admin') throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER)
            },
          },
        },
      },
    })
    const r = await roster(auth)
    const reply = await post(auth, 'delete', r.owner, { organizationId: r.org.id })
    expect(reply.status).toBe(403)
    const { db } = await auth.$context
    expect(await db.count({ model: 'member', where: { field: 'organizationId', value: r.org.id } })).toBe(3)
    expect(await db.findOne({ model: 'organization', where: { field: 'id', value: r.org.id } })).not.toBeNull()
  })
})

describe('deleting a user', () => {
  it('removes their memberships', async () => {
    const auth = orgAuth({}, { user: { deleteUser: { enabled: true } } })
    const r = await roster(auth)
    const { db } = await auth.$context
    await db.delete({ model: 'user', where: { field: 'id', value: r.member.id } })
    expect(await db.count({ model: 'member', where: { field: 'userId', value: r.member.id } })).toBe(0)
    expect(await db.count({ model: 'member', where: { field: 'organizationId', value: r.org.id } })).toBe(2)
  })
})
