/**
 * Gatehouse end to end on the Prisma adapter over SQLite: sign-up, sign-in
 * and get-session through `auth.handler`, and an organization created by
 * the organization plugin, with the rows read back through the application's
 * own Prisma Client, as the application would read them.
 */
import { createAuth } from '@gatehouse/core'
import { organization } from '@gatehouse/organization'
import { afterAll, describe, expect, it } from 'vitest'
import { prismaAdapter } from '../src/index.js'
import { createPrismaBackend, type PrismaBackend } from './databases.js'

const BASE = 'http://localhost:3000'

let backend: PrismaBackend | undefined

const auth = createAuth({
  baseURL: BASE,
  secret: 'test-secret-0123456789-abcdefghijklmnop',
  logger: { disabled: true },
  emailAndPassword: { enabled: true },
  plugins: [organization()],
  // The tables are made for the schema the auth merges, once it asks for its adapter.
  database: async ({ schema }) => {
    backend = await createPrismaBackend('sqlite', 'default', schema)
    return prismaAdapter(backend.prisma, { provider: backend.provider })({ schema })
  },
})

afterAll(async () => {
  await backend?.drop()
})

function post(path: string, body: unknown, cookie?: string): Request {
  return new Request(`${BASE}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  })
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a browser sends them back. */
function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ')
}

/** Rows of one model read with the generated client (`prisma.user.findMany()`). */
async function rowsOf(model: string): Promise<Record<string, unknown>[]> {
  const delegate: unknown = Reflect.get(Object(backend?.prisma), model)
  const findMany: unknown = Reflect.get(Object(delegate), 'findMany')
  if (typeof findMany !== 'function') throw new Error(`No prisma.${model}`)
  return (await Reflect.apply(findMany, delegate, [])) as Record<string, unknown>[]
}

describe('createAuth on the Prisma adapter (SQLite)', () => {
  it('signs up, signs in, reads the session and creates an organization', async () => {
    const signUp = await auth.handler(post('/sign-up/email', { name: 'Ada', email: 'Ada@Example.com', password: 'correct horse battery staple' }))
    expect(signUp.status).toBe(200)
    const users = await rowsOf('user')
    expect(users).toMatchObject([{ name: 'Ada', email: 'ada@example.com', emailVerified: false }])
    expect(users[0]?.createdAt).toBeInstanceOf(Date)
    expect(await rowsOf('account')).toMatchObject([{ providerId: 'credential', userId: users[0]?.id }])

    const wrong = await auth.handler(post('/sign-in/email', { email: 'ada@example.com', password: 'wrong horse battery staple' }))
    expect(wrong.status).toBe(401)
    const signIn = await auth.handler(post('/sign-in/email', { email: 'ada@example.com', password: 'correct horse battery staple' }))
    expect(signIn.status).toBe(200)
    const cookie = cookieOf(signIn)

    const session = await auth.handler(new Request(`${BASE}/api/auth/get-session`, { headers: { cookie } }))
    expect(session.status).toBe(200)
    const body = (await session.json()) as { user: { email: string }; session: { userId: string } }
    expect(body.user.email).toBe('ada@example.com')
    expect(body.session.userId).toBe(users[0]?.id)

    const created = await auth.handler(post('/organization/create', { name: 'Acme', slug: 'acme' }, cookie))
    expect(created.status).toBe(200)
    const [org] = await rowsOf('organization')
    expect(org).toMatchObject({ name: 'Acme', slug: 'acme' })
    expect(await rowsOf('member')).toMatchObject([{ organizationId: org?.id, userId: users[0]?.id, role: 'owner' }])

    const again = await auth.handler(post('/organization/create', { name: 'Acme again', slug: 'acme' }, cookie))
    expect(again.status).toBe(400)
    expect(await rowsOf('organization')).toHaveLength(1)
  })

  it('answers a second sign-up with the same email "User already exists", from the unique index', async () => {
    const first = await auth.handler(post('/sign-up/email', { name: 'Bob', email: 'bob@example.com', password: 'correct horse battery staple' }))
    expect(first.status).toBe(200)
    const second = await auth.handler(post('/sign-up/email', { name: 'Bob', email: 'BOB@example.com', password: 'another horse battery staple' }))
    expect(second.status).toBe(422)
    expect(((await second.json()) as { message: string }).message).toBe('User already exists')
    expect((await rowsOf('user')).filter((user) => user.email === 'bob@example.com')).toHaveLength(1)
  })
})
