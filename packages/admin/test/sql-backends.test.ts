/**
 * The plugin on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured. Migrations add the admin columns; list-users searches, filters,
 * sorts and counts in SQL; remove-user deletes in one transaction; an
 * impersonation racing the ban, removal or demotion of its admin never
 * survives it (docs/admin.md#security).
 */
import { createSession, runMigrations, type Adapter, type AdapterFactory, type Row, type User } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { afterInsertInTransaction } from '../../core/test/transaction-pause.js'
import { adminAuth, get, newUser, post, sessionFor, sessionRows, signIn, type AdminAuth, type Reply } from './fixtures.js'

/** What takes an admin's power to impersonate away, as the route and its body. */
const STOPS: ReadonlyArray<readonly [string, (adminId: string) => Record<string, unknown>]> = [
  ['ban-user', (userId) => ({ userId })],
  ['remove-user', (userId) => ({ userId })],
  ['set-role', (userId) => ({ userId, role: 'user' })],
]

/**
 * The backend's adapter, with `pause` run inside the transaction that has
 * just written an impersonation session, before it commits: the moment a
 * change racing it must either wait for, or see.
 */
function pausingAfterImpersonation(factory: AdapterFactory, pause: () => Promise<void>): AdapterFactory {
  return afterInsertInTransaction(factory, ({ model, data }) => model === 'session' && Boolean(data.impersonatedBy), pause)
}

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`admin plugin on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: AdminAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = adminAuth({}, { database: backend.factory })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    function ready(): AdminAuth {
      if (!auth) throw new Error('backend not ready')
      return auth
    }

    it('list-users searches case-insensitively, filters, sorts and pages in SQL, with the total', async () => {
      const auth = ready()
      const root = await newUser(auth, { role: 'admin', email: `root-${dialect}@admin.test`, name: 'Root' })
      for (const name of ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']) {
        await newUser(auth, { name, email: `${name.split(' ')[0]?.toLowerCase()}-${dialect}@science.test` })
      }
      const search = await get(auth, 'list-users', root, { searchValue: 'SCIENCE', limit: '2', sortBy: 'name', sortDirection: 'desc' })
      expect(search.status).toBe(200)
      expect(search.body).toMatchObject({ total: 3, limit: 2, offset: 0 })
      expect(search.body.users.map((u: { name: string }) => u.name)).toEqual(['Grace Hopper', 'Alan Turing'])
      const next = await get(auth, 'list-users', root, { searchValue: 'science', limit: '2', offset: '2', sortBy: 'name', sortDirection: 'desc' })
      expect(next.body.users.map((u: { name: string }) => u.name)).toEqual(['Ada Lovelace'])
      const named = await get(auth, 'list-users', root, { searchField: 'name', searchOperator: 'starts_with', searchValue: 'al' })
      expect(named.body).toMatchObject({ total: 1, users: [{ name: 'Alan Turing' }] })
      const admins = await get(auth, 'list-users', root, { filterField: 'role', filterValue: 'admin' })
      expect(admins.body).toMatchObject({ total: 1, users: [{ id: root.id, role: 'admin', banned: false }] })
      const notBanned = await get(auth, 'list-users', root, { filterField: 'banned', filterValue: 'false' })
      expect(notBanned.body.total).toBe(4)
    })

    it('ban revokes sessions and refuses sign-in; remove-user deletes the user, sessions and accounts', async () => {
      const auth = ready()
      const root = await newUser(auth, { role: 'admin' })
      const alice = await newUser(auth)
      expect((await post(auth, 'ban-user', root, { userId: alice.id, banReason: 'spam', banExpiresIn: 600 })).status).toBe(200)
      expect(await sessionRows(auth, alice.id)).toEqual([])
      expect((await signIn(auth, { email: alice.email })).response.status).toBe(403)
      await post(auth, 'unban-user', root, { userId: alice.id })
      expect((await signIn(auth, { email: alice.email })).response.status).toBe(200)

      expect((await post(auth, 'remove-user', root, { userId: alice.id })).status).toBe(200)
      const { db } = await auth.$context
      expect(await db.findOne({ model: 'user', where: { field: 'id', value: alice.id } })).toBeNull()
      expect(await db.count({ model: 'account', where: { field: 'userId', value: alice.id } })).toBe(0)
      expect(await sessionRows(auth, alice.id)).toEqual([])
    })

    it('the ban guard reads through the transaction a session is opened in (one SQLite connection never deadlocks)', async () => {
      const auth = ready()
      const root = await newUser(auth, { role: 'admin' })
      const alice = await newUser(auth)
      const bob = await newUser(auth)
      await post(auth, 'ban-user', root, { userId: alice.id })
      const context = await auth.$context
      const open = async (id: string) => {
        const user = await context.db.findOne<User>({ model: 'user', where: { field: 'id', value: id } })
        if (!user) throw new Error('no user')
        return context.db.transaction((tx) => createSession(context, user, { db: tx }))
      }
      await expect(open(alice.id)).rejects.toMatchObject({ status: 403, code: 'BANNED_USER' })
      expect(await sessionRows(auth, alice.id)).toEqual([])
      expect((await open(bob.id)).user.id).toBe(bob.id)
    })

    it('impersonation stores impersonatedBy and comes back', async () => {
      const auth = ready()
      const root = await newUser(auth, { role: 'admin' })
      const alice = await newUser(auth)
      const reply = await post(auth, 'impersonate-user', root, { userId: alice.id })
      expect(reply.body.session).toMatchObject({ userId: alice.id, impersonatedBy: root.id })
      expect((await post(auth, 'stop-impersonating', reply.cookie)).body.user.id).toBe(root.id)
      expect((await sessionRows(auth, alice.id)).map((row) => row.impersonatedBy)).toEqual([null])
    })

    for (const [route, body] of STOPS) {
      it(`${route} of an admin opening an impersonation at that moment ends it: the change waits for the session and sweeps it`, async () => {
        if (!backend) throw new Error('backend not ready')
        let start: () => Promise<Reply> = () => Promise.reject(new Error('no race armed'))
        let racing: Promise<Reply> | undefined
        // The change starts while the session is written but not committed. Given the time to finish there, it
        // would sweep before the session exists (no lock) and leave it alive; it must instead wait for the commit.
        const raced = adminAuth(
          {},
          {
            database: pausingAfterImpersonation(backend.factory, async () => {
              racing = start()
              await Promise.race([racing, new Promise((resolve) => setTimeout(resolve, 300))])
            }),
          },
        )
        try {
          const rogue = await newUser(raced, { role: 'admin' })
          const second = await newUser(raced, { role: 'admin' })
          const victim = await newUser(raced)
          start = () => post(raced, route, second, body(rogue.id))
          const impersonation = await post(raced, 'impersonate-user', rogue, { userId: victim.id })
          expect(impersonation.status).toBe(200)
          expect((await racing)?.status).toBe(200)
          const { db } = await raced.$context
          expect(await db.count({ model: 'session', where: { field: 'impersonatedBy', value: rogue.id } })).toBe(0)
          expect((await sessionFor(raced, impersonation.cookie))?.user.id ?? null).not.toBe(victim.id)
          expect((await sessionFor(raced, victim.cookie))?.user.id).toBe(victim.id)
        } finally {
          await raced.close()
        }
      })
    }
  })
}
