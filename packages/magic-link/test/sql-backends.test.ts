/**
 * The flow on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured (there parallel requests run on pooled connections and really
 * interleave). Twenty parallel openings of one link make one session, and a
 * new user is created once. Each backend gets its own schema or database, dropped after.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { linkAuth, openLink, requestLink, type LinkAuth } from './fixtures.js'

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`magic link on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: LinkAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = linkAuth({}, { database: backend.factory })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    function ready(): LinkAuth {
      if (!auth) throw new Error('backend not ready')
      return auth
    }

    it('twenty parallel openings of one link for a new address: one user, one session', async () => {
      const auth = ready()
      const email = `race-${dialect}@example.com`
      await requestLink(auth, { email, name: 'Racer', callbackURL: '/in', newUserCallbackURL: '/welcome' })
      const url = auth.lastLink()!.url
      const results = await Promise.all(Array.from({ length: 20 }, () => openLink(auth, url)))
      expect(results.filter((result) => result.location === '/welcome')).toHaveLength(1)
      expect(results.filter((result) => result.location === '/in?error=invalid_token')).toHaveLength(19)
      const { db } = await auth.$context
      const users = await db.findMany<{ id: string; emailVerified: boolean; name: string }>({ model: 'user', where: { field: 'email', value: email } })
      expect(users).toHaveLength(1)
      expect(users[0]).toMatchObject({ emailVerified: true, name: 'Racer' })
      expect(await db.count({ model: 'session', where: { field: 'userId', value: users[0]!.id } })).toBe(1)
    })

    it('an expired link is refused and deleted', async () => {
      const auth = ready()
      await requestLink(auth, { email: `late-${dialect}@example.com`, callbackURL: '/in' })
      auth.clock.advance(300_000)
      expect((await openLink(auth, auth.lastLink()!.url)).location).toBe('/in?error=token_expired')
      const { db } = await auth.$context
      expect(await db.count({ model: 'verification' })).toBe(0)
    })
  })
}
