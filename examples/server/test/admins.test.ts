/**
 * ADMIN_EMAILS on the example's own Gatehouse (SQLite in a temporary
 * directory): a listed address becomes admin once verified, not at sign-up;
 * an unlisted one never; users verified before the list named them are
 * promoted at start-up. Only the update that verifies the address promotes:
 * /admin/set-role demotes a listed admin, and later updates keep it so.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { promoteAdmins } from '../src/admins.js'
import { createExampleAuth, type ExampleAuth } from '../src/auth.js'
import { readConfig } from '../src/config.js'
import { cookiesOf } from './harness.js'

const BASE = 'http://127.0.0.1:3999'
let directory = ''
let auth: ExampleAuth
const mails: Array<{ type: string; to: string; url: string }> = []

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'gatehouse-admins-'))
  const config = readConfig({ PORT: '3999', DATABASE_PATH: join(directory, 'auth.db'), RATE_LIMIT: '0', ADMIN_EMAILS: 'Ops@Example.com' })
  auth = createExampleAuth(config, { send: async (mail) => void mails.push(mail), text: async () => undefined })
  await runMigrations(auth)
})
afterAll(async () => {
  await auth.close()
  await rm(directory, { recursive: true, force: true })
})

async function signUp(email: string): Promise<{ id: string; cookie: string }> {
  const response = await auth.handler(
    new Request(`${BASE}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: BASE, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Someone', email, password: 'correct horse battery' }),
    }),
  )
  const body = (await response.json()) as { user: { id: string } }
  return { id: body.user.id, cookie: cookiesOf(response) }
}

async function roleOf(id: string): Promise<unknown> {
  const { db } = await auth.$context
  return (await db.findOne({ model: 'user', where: { field: 'id', value: id } }))?.role
}

describe('ADMIN_EMAILS', () => {
  it('a listed address becomes admin when verified, and may then use the admin routes', async () => {
    const ops = await signUp('ops@example.com')
    expect(await roleOf(ops.id)).toBe('user')
    const listUsers = () => auth.handler(new Request(`${BASE}/api/auth/admin/list-users`, { headers: { cookie: ops.cookie } }))
    expect((await listUsers()).status).toBe(403)

    const link = mails.find((mail) => mail.type === 'verify-email' && mail.to === 'ops@example.com')
    expect(link).toBeDefined()
    await auth.handler(new Request(link?.url ?? ''))
    expect(await roleOf(ops.id)).toBe('admin')
    expect((await listUsers()).status).toBe(200)
  })

  it('an unlisted address never does', async () => {
    const other = await signUp('someone@example.com')
    const link = mails.find((mail) => mail.type === 'verify-email' && mail.to === 'someone@example.com')
    await auth.handler(new Request(link?.url ?? ''))
    expect(await roleOf(other.id)).toBe('user')
  })

  it('start-up promotes verified users the list names, and only those', async () => {
    const late = await signUp('late@example.com')
    const unverified = await signUp('pending@example.com')
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: late.id }, update: { emailVerified: true } })
    expect(await promoteAdmins(db, new Set(['late@example.com', 'pending@example.com']))).toBe(1)
    expect(await roleOf(late.id)).toBe('admin')
    expect(await roleOf(unverified.id)).toBe('user')
  })

  it('/admin/set-role demotes a listed admin, and the next updates of that user leave the demotion alone', async () => {
    const { db } = await auth.$context
    const root = await signUp('root@example.com')
    await db.update({ model: 'user', where: { field: 'id', value: root.id }, update: { role: 'admin' } })
    const ops = await db.findOne<{ id: string }>({ model: 'user', where: { field: 'email', value: 'ops@example.com' } })
    expect(await roleOf(ops?.id ?? '')).toBe('admin')
    const post = (path: string, cookie: string, json: unknown) =>
      auth.handler(new Request(`${BASE}/api/auth${path}`, { method: 'POST', headers: { origin: BASE, cookie, 'content-type': 'application/json' }, body: JSON.stringify(json) }))

    const demoted = await post('/admin/set-role', root.cookie, { userId: ops?.id, role: 'user' })
    expect(demoted.status).toBe(200)
    expect(((await demoted.json()) as { user: { role: string } }).user.role).toBe('user')
    expect(await roleOf(ops?.id ?? '')).toBe('user')
    // Any later update of the user (here their name, through the admin route's write) keeps the role.
    await db.update({ model: 'user', where: { field: 'id', value: ops?.id ?? '' }, update: { name: 'Ops, demoted' } })
    expect((await post('/admin/set-role', root.cookie, { userId: ops?.id, role: 'user' })).status).toBe(200)
    expect(await roleOf(ops?.id ?? '')).toBe('user')
  })
})
