/**
 * Guests on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured (parallel requests really interleave). Five sign-ins racing
 * from one guest browser move the guest's cart once, and the guest is gone.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { browser, cartOf, fillCart, guestAuth, PASSWORD, type GuestAuth } from './fixtures.js'

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`guests on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: GuestAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = guestAuth({ database: backend.factory })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    it('five sign-ins racing from one guest browser: the cart moves once, the guest is deleted', async () => {
      const email = `member-${dialect}@example.com`
      const member = await signUp(auth!, { email })
      const tab = browser(auth!)
      const guest = (await tab.call('/sign-in/anonymous', {})).body.user
      await fillCart(auth!, guest.id)
      const statuses = await Promise.all(
        Array.from({ length: 5 }, () =>
          auth!
            .handler(
              new Request('http://localhost:3000/api/auth/sign-in/email', {
                method: 'POST',
                headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie: tab.cookie },
                body: JSON.stringify({ email, password: PASSWORD }),
              }),
            )
            .then((response) => response.status),
        ),
      )
      expect(statuses).toEqual([200, 200, 200, 200, 200])
      expect(auth!.links.filter((link) => link.guestId === guest.id)).toHaveLength(1)
      expect((await cartOf(auth!, member.body.user.id))?.value).toBe('three books')
      const { db } = await auth!.$context
      expect(await db.findOne({ model: 'user', where: { field: 'id', value: guest.id } })).toBeNull()
    })
  })
}
