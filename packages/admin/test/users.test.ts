import { describe, expect, it } from 'vitest'
import { adminAc } from '../src/access.js'
import { adminAuth, cast, get, newUser, post, signIn } from './fixtures.js'

const forbidden = (code: string, message: string) => ({ code, message })

describe('POST /admin/create-user', () => {
  it('creates a user with a credential account who can sign in', async () => {
    const auth = adminAuth()
    const { root } = await cast(auth)
    const reply = await post(auth, 'create-user', root, {
      email: ' New@Example.com ',
      password: 'a long password',
      name: 'New',
      data: { emailVerified: true },
    })
    expect(reply.status).toBe(200)
    expect(reply.body.user).toMatchObject({ email: 'new@example.com', name: 'New', role: 'user', banned: false, emailVerified: true })
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'account', where: { field: 'userId', value: reply.body.user.id } })).toMatchObject({ providerId: 'credential' })
    expect((await signIn(auth, { email: 'new@example.com', password: 'a long password' })).response.status).toBe(200)
  })

  it('grants roles the caller holds, refuses unknown roles and roles stronger than the caller', async () => {
    const ac = adminAc
    const auth = adminAuth({ roles: { admin: ac.newRole({ user: ['create', 'list'] }), user: ac.newRole({}), support: ac.newRole({ user: ['list'] }), owner: ac.newRole({ user: ['create', 'list', 'ban'] }) } })
    const { root } = await cast(auth)
    const ok = await post(auth, 'create-user', root, { email: 'a@example.com', password: 'a long password', name: 'A', role: ['support', 'user'] })
    expect(ok.body.user.role).toBe('support,user')
    expect(await post(auth, 'create-user', root, { email: 'b@example.com', password: 'a long password', name: 'B', role: 'wizard' })).toMatchObject({
      status: 400,
      body: forbidden('ROLE_NOT_FOUND', 'Role not found'),
    })
    expect(await post(auth, 'create-user', root, { email: 'c@example.com', password: 'a long password', name: 'C', role: 'owner' })).toMatchObject({
      status: 403,
      body: forbidden('YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE', 'You are not allowed to grant this role'),
    })
  })

  it('refuses a user and the anonymous caller, and validates the body', async () => {
    const auth = adminAuth()
    const { root, alice } = await cast(auth)
    const body = { email: 'x@example.com', password: 'a long password', name: 'X' }
    expect(await post(auth, 'create-user', alice, body)).toMatchObject({
      status: 403,
      body: forbidden('YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS', 'You are not allowed to create users'),
    })
    expect((await post(auth, 'create-user', null, body)).status).toBe(401)
    expect(await post(auth, 'create-user', root, { ...body, email: 'nope' })).toMatchObject({ status: 400, body: { message: 'Invalid email' } })
    expect(await post(auth, 'create-user', root, { ...body, password: 'short' })).toMatchObject({ status: 400, body: { message: 'Password too short' } })
    expect(await post(auth, 'create-user', root, { ...body, email: alice.email.toUpperCase() })).toMatchObject({
      status: 422,
      body: { message: 'User already exists' },
    })
    // Server-owned fields cannot be smuggled in through `data`.
    expect(await post(auth, 'create-user', root, { ...body, data: { banned: true } })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } })
    expect(await post(auth, 'create-user', root, { ...body, data: { emailVerified: 'yes' } })).toMatchObject({ status: 400 })
    expect((await post(auth, 'create-user', root, { email: 'y@example.com' })).status).toBe(400)
    const { db } = await auth.$context
    expect(await db.count({ model: 'user', where: { field: 'email', value: 'x@example.com' } })).toBe(0)
  })

  it('sign-up and update-user never let a user set their own role or ban', async () => {
    const auth = adminAuth()
    const { alice } = await cast(auth)
    const { db } = await auth.$context
    const { signUp } = await import('./fixtures.js')
    const signed = await signUp(auth, { email: 'sneaky@example.com', role: 'admin', banned: false })
    expect(signed.body.user.role).toBe('user')
    const { authed } = await import('../../core/test/accounts.js')
    await auth.handler(authed('/api/auth/update-user', alice.cookie, { json: { name: 'Alice', role: 'admin' } }))
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: alice.id } })).toMatchObject({ name: 'Alice', role: 'user' })
  })
})

describe('GET /admin/list-users', () => {
  async function population() {
    const auth = adminAuth()
    const root = await newUser(auth, { role: 'admin', email: 'root@admin.test', name: 'Root' })
    const names = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Barbara Liskov', 'Edsger Dijkstra']
    const users = []
    for (const name of names) users.push(await newUser(auth, { name, email: `${name.split(' ')[0]?.toLowerCase()}@science.test` }))
    return { auth, root, users }
  }

  it('pages in creation order with the total and the page bounds', async () => {
    const { auth, root } = await population()
    const first = await get(auth, 'list-users', root, { limit: '2' })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ total: 6, limit: 2, offset: 0 })
    expect(first.body.users.map((u: { email: string }) => u.email)).toEqual(['root@admin.test', 'ada@science.test'])
    const second = await get(auth, 'list-users', root, { limit: '2', offset: '2' })
    expect(second.body.users.map((u: { email: string }) => u.email)).toEqual(['alan@science.test', 'grace@science.test'])
    const past = await get(auth, 'list-users', root, { limit: '2', offset: '10' })
    expect(past.body).toMatchObject({ users: [], total: 6 })
    // No hidden field leaks, and the admin fields are there.
    expect(first.body.users[1]).toMatchObject({ role: 'user', banned: false, banReason: null, banExpires: null })
  })

  it('searches by email or name, case-insensitively, with each operator', async () => {
    const { auth, root } = await population()
    const emails = async (query: Record<string, string>) => {
      const reply = await get(auth, 'list-users', root, query)
      expect(reply.status).toBe(200)
      return { total: reply.body.total, emails: reply.body.users.map((u: { email: string }) => u.email) }
    }
    expect(await emails({ searchValue: 'SCIENCE', searchOperator: 'contains' })).toMatchObject({ total: 5 })
    expect(await emails({ searchValue: 'Al', searchField: 'name', searchOperator: 'starts_with' })).toEqual({ total: 1, emails: ['alan@science.test'] })
    expect(await emails({ searchValue: 'RA', searchField: 'name', searchOperator: 'ends_with' })).toEqual({ total: 1, emails: ['edsger@science.test'] })
    expect(await emails({ searchValue: '@ADMIN.test', searchOperator: 'ends_with' })).toEqual({ total: 1, emails: ['root@admin.test'] })
    // An empty search matches everyone.
    expect(await emails({ searchValue: '' })).toMatchObject({ total: 6 })
  })

  it('filters, sorts by any field both ways, and refuses hidden or unknown fields', async () => {
    const { auth, root, users } = await population()
    const names = async (query: Record<string, string>) =>
      (await get(auth, 'list-users', root, query)).body.users.map((u: { name: string }) => u.name)
    expect(await names({ filterField: 'role', filterValue: 'admin' })).toEqual(['Root'])
    expect(await names({ filterField: 'role', filterOperator: 'ne', filterValue: 'admin', sortBy: 'name', sortDirection: 'desc' })).toEqual([
      'Grace Hopper',
      'Edsger Dijkstra',
      'Barbara Liskov',
      'Alan Turing',
      'Ada Lovelace',
    ])
    await post(auth, 'ban-user', root, { userId: users[2]?.id })
    const banned = await get(auth, 'list-users', root, { filterField: 'banned', filterValue: 'true' })
    expect(banned.body).toMatchObject({ total: 1, users: [{ name: 'Grace Hopper', banned: true }] })
    expect((await get(auth, 'list-users', root, { filterField: 'banned', filterValue: 'maybe' })).status).toBe(400)
    expect((await get(auth, 'list-users', root, { sortBy: 'nope' })).status).toBe(400)
    expect((await get(auth, 'list-users', root, { filterField: 'role' })).status).toBe(400)
    expect((await get(auth, 'list-users', root, { filterField: 'banned', filterOperator: 'contains', filterValue: 'true' })).status).toBe(400)
    expect((await get(auth, 'list-users', root, { limit: '0' })).status).toBe(400)
    expect((await get(auth, 'list-users', root, { searchField: 'password', searchValue: 'x' })).status).toBe(400)
  })

  it('searches in the database: one findMany and one count, however many users', async () => {
    const { auth, root } = await population()
    const { adapter } = await auth.$context
    const calls: string[] = []
    const findMany = adapter.findMany.bind(adapter)
    const count = adapter.count.bind(adapter)
    Object.assign(adapter, {
      findMany: (args: { model: string; limit?: number }) => {
        calls.push(`findMany:${args.model}:${args.limit}`)
        return findMany(args as never)
      },
      count: (args: { model: string }) => {
        calls.push(`count:${args.model}`)
        return count(args as never)
      },
    })
    await get(auth, 'list-users', root, { searchValue: 'a', limit: '3' })
    expect(calls).toEqual(['findMany:user:3', 'count:user'])
  })

  it('refuses a user and the anonymous caller', async () => {
    const auth = adminAuth()
    const { alice } = await cast(auth)
    expect(await get(auth, 'list-users', alice)).toMatchObject({
      status: 403,
      body: forbidden('YOU_ARE_NOT_ALLOWED_TO_LIST_USERS', 'You are not allowed to list users'),
    })
    expect((await get(auth, 'list-users', null)).status).toBe(401)
  })
})
