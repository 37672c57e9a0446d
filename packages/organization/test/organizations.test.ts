import { describe, expect, it } from 'vitest'
import { addMember, createOrg, get, newUser, orgAuth, post, sessionOf } from './fixtures.js'

describe('POST /organization/create', () => {
  it('creates the organization with the caller as owner and makes it active', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    const reply = await post(auth, 'create', ada, { name: 'Acme', slug: 'acme', metadata: { plan: 'pro' }, logo: 'https://x.test/l.png' })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ name: 'Acme', slug: 'acme', logo: 'https://x.test/l.png', metadata: { plan: 'pro' } })
    expect(reply.body.members).toHaveLength(1)
    expect(reply.body.members[0]).toMatchObject({ userId: ada.id, role: 'owner', organizationId: reply.body.id })
    expect((await sessionOf(auth, ada))?.activeOrganizationId).toBe(reply.body.id)
  })

  it('keepCurrentActiveOrganization leaves the active organization alone', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    const first = await createOrg(auth, ada, 'first')
    const second = await post(auth, 'create', ada, { name: 'Two', slug: 'second', keepCurrentActiveOrganization: true })
    expect(second.status).toBe(200)
    expect((await sessionOf(auth, ada))?.activeOrganizationId).toBe(first.id)
  })

  it('refuses a taken slug with "Organization already exists"', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    await createOrg(auth, ada, 'acme')
    const reply = await post(auth, 'create', ada, { name: 'Other', slug: 'acme' })
    expect(reply).toEqual({ status: 400, body: { code: 'ORGANIZATION_ALREADY_EXISTS', message: 'Organization already exists' } })
  })

  it('concurrent creates with one slug make one organization', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => post(auth, 'create', ada, { name: `n${i}`, slug: 'race' })))
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1)
    const { db } = await auth.$context
    expect(await db.count({ model: 'organization', where: { field: 'slug', value: 'race' } })).toBe(1)
    expect(await db.count({ model: 'member', where: { field: 'userId', value: ada.id } })).toBe(1)
  })

  it('answers 401 "Not authenticated" without a session, and validates name and slug', async () => {
    const auth = orgAuth()
    expect(await post(auth, 'create', null, { name: 'A', slug: 'a' })).toEqual({
      status: 401,
      body: { code: 'NOT_AUTHENTICATED', message: 'Not authenticated' },
    })
    const ada = await newUser(auth)
    expect((await post(auth, 'create', ada, { slug: 'a' })).status).toBe(400)
  })

  it('a request cannot create an organization for another user', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    const bo = await newUser(auth)
    const reply = await post(auth, 'create', ada, { name: 'B', slug: 'b', userId: bo.id })
    expect(reply.status).toBe(403)
    expect(reply.body.message).toBe('You are not allowed to create a new organization')
  })

  it('a server-side call without a session creates one for a given userId; an unknown user is 401', async () => {
    const auth = orgAuth()
    const bo = await newUser(auth)
    const created = await auth.api.createOrganization({ body: { name: 'Srv', slug: 'srv', userId: bo.id } })
    expect(created.members[0]).toMatchObject({ userId: bo.id, role: 'owner' })
    await expect(auth.api.createOrganization({ body: { name: 'X', slug: 'x', userId: 'nobody' } })).rejects.toMatchObject({
      status: 401,
      message: 'User not found',
    })
  })

  it('honours allowUserToCreateOrganization (boolean and function), organizationLimit and creatorRole', async () => {
    const closed = orgAuth({ allowUserToCreateOrganization: false })
    const ada = await newUser(closed)
    expect(await post(closed, 'create', ada, { name: 'A', slug: 'a' })).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION', message: 'You are not allowed to create a new organization' },
    })
    const picky = orgAuth({ allowUserToCreateOrganization: (user) => user.email.startsWith('vip') })
    expect((await post(picky, 'create', await newUser(picky), { name: 'A', slug: 'a' })).status).toBe(403)
    expect((await post(picky, 'create', await newUser(picky, { email: 'vip@example.com' }), { name: 'A', slug: 'a' })).status).toBe(200)

    const limited = orgAuth({ organizationLimit: 1, creatorRole: 'admin' })
    const bo = await newUser(limited)
    const first = await createOrg(limited, bo, 'one')
    expect(first.members[0]?.role).toBe('admin')
    expect(await post(limited, 'create', bo, { name: 'Two', slug: 'two' })).toEqual({
      status: 403,
      body: { code: 'YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS', message: 'You have reached the maximum number of organizations' },
    })
  })
})

describe('POST /organization/check-slug', () => {
  it('answers status true for a free slug and "slug is taken" otherwise; needs a session', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    await createOrg(auth, ada, 'taken')
    expect(await post(auth, 'check-slug', ada, { slug: 'free' })).toEqual({ status: 200, body: { status: true } })
    expect(await post(auth, 'check-slug', ada, { slug: 'taken' })).toEqual({ status: 400, body: { code: 'SLUG_IS_TAKEN', message: 'slug is taken' } })
    expect((await post(auth, 'check-slug', null, { slug: 'free' })).status).toBe(401)
  })
})

describe('GET /organization/list and get-full-organization, POST set-active', () => {
  it('lists only the caller’s organizations', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    const bo = await newUser(auth)
    const a1 = await createOrg(auth, ada, 'a1')
    const a2 = await createOrg(auth, ada, 'a2')
    await createOrg(auth, bo, 'b1')
    const reply = await get(auth, 'list', ada)
    expect(reply.status).toBe(200)
    expect(reply.body.map((org: { id: string }) => org.id)).toEqual([a1.id, a2.id])
    expect((await get(auth, 'list', null)).status).toBe(401)
  })

  it('get-full-organization returns members with users and invitations to members only', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    const bo = await newUser(auth)
    const eve = await newUser(auth)
    const org = await createOrg(auth, ada, 'full')
    await addMember(auth, org.id, bo)
    const reply = await get(auth, 'get-full-organization', bo, { organizationId: org.id })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ id: org.id, slug: 'full', invitations: [] })
    expect(reply.body.members.map((m: { user: { email: string }; role: string }) => [m.user.email, m.role])).toEqual([
      [ada.email, 'owner'],
      [bo.email, 'member'],
    ])
    expect(reply.body.teams).toBeUndefined()
    expect(await get(auth, 'get-full-organization', eve, { organizationId: org.id })).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION', message: 'You are not a member of this organization' },
    })
    expect(await get(auth, 'get-full-organization', eve, { organizationId: 'missing' })).toEqual({
      status: 400,
      body: { code: 'ORGANIZATION_NOT_FOUND', message: 'Organization not found' },
    })
    // The active organization is the default; with none active the answer is null.
    expect((await get(auth, 'get-full-organization', ada)).body.id).toBe(org.id)
    expect((await get(auth, 'get-full-organization', eve)).body).toBeNull()
    expect((await get(auth, 'get-full-organization', ada, { organizationSlug: 'full', membersLimit: '1' })).body.members).toHaveLength(1)
  })

  it('set-active switches and clears the active organization, for members only', async () => {
    const auth = orgAuth()
    const ada = await newUser(auth)
    const eve = await newUser(auth)
    const one = await createOrg(auth, ada, 'one')
    const two = await createOrg(auth, ada, 'two')
    expect((await sessionOf(auth, ada))?.activeOrganizationId).toBe(two.id)
    const reply = await post(auth, 'set-active', ada, { organizationId: one.id })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ id: one.id, members: [{ userId: ada.id }] })
    expect((await sessionOf(auth, ada))?.activeOrganizationId).toBe(one.id)
    expect((await post(auth, 'set-active', ada, { organizationSlug: 'two' })).body.id).toBe(two.id)
    expect(await post(auth, 'set-active', ada, { organizationId: null })).toEqual({ status: 200, body: null })
    expect((await sessionOf(auth, ada))?.activeOrganizationId).toBeNull()
    expect((await post(auth, 'set-active', eve, { organizationId: one.id })).status).toBe(403)
    expect((await sessionOf(auth, eve))?.activeOrganizationId).toBeNull()
    expect((await post(auth, 'set-active', ada, { organizationId: 'missing' })).status).toBe(400)
    expect((await post(auth, 'set-active', null, { organizationId: one.id })).status).toBe(401)
  })

  it('the active organization reaches get-session, also through the cookie cache', async () => {
    const auth = orgAuth({}, { session: { cookieCache: { enabled: true } } })
    const ada = await newUser(auth)
    const org = await createOrg(auth, ada, 'cached')
    const response = await auth.handler(
      new Request('http://localhost:3000/api/auth/organization/set-active', {
        method: 'POST',
        headers: { origin: 'http://localhost:3000', cookie: ada.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ organizationId: null }),
      }),
    )
    expect(response.status).toBe(200)
    const { cookieHeader } = await import('../../core/test/accounts.js')
    const cookie = cookieHeader(response, ada.cookie)
    const session = await auth.api.getSession({ headers: { cookie }, query: {} })
    expect(session?.session.activeOrganizationId).toBeNull()
    const again = await post(auth, 'set-active', { ...ada, cookie }, { organizationId: org.id })
    expect(again.status).toBe(200)
  })
})
