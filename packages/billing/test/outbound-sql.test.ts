/**
 * Customer sync on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured (pooled connections, so racing requests really interleave).
 * Twenty sign-ups racing for one email make one user and one platform
 * customer with one create call; twenty workers draining one pending sync
 * push it once; an email change is pushed.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { retryDelayMs } from '../src/outbound/customer-sync.js'
import { startPlatformMock, type PlatformMock } from './platform-mock.js'
import { outboundAuth, type OutboundAuth } from './fixtures/outbound.js'

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`customer sync on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: OutboundAuth | undefined
    let mock: PlatformMock

    beforeAll(async () => {
      mock = await startPlatformMock()
      backend = await createTestBackend(dialect)
      auth = outboundAuth(mock, {}, { database: backend.factory })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
      await mock.close()
    })

    function ready(): OutboundAuth {
      if (!auth) throw new Error('backend not ready')
      return auth
    }
    const creates = () => mock.requests.filter((request) => request.method === 'POST' && request.path === '/v1/customers/').length

    it('twenty sign-ups racing for one email: one user, one customer, one create call', async () => {
      const auth = ready()
      const before = creates()
      const replies = await Promise.all(Array.from({ length: 20 }, () => signUp(auth, { email: `race-${dialect}@example.com` })))
      await auth.billingPlugin.idle()
      const winners = replies.filter((reply) => reply.response.status === 200)
      expect(winners).toHaveLength(1)
      const userId = winners[0]?.body.user.id as string
      expect([...mock.customers.values()].filter((customer) => customer.email === `race-${dialect}@example.com`)).toMatchObject([{ external_id: userId }])
      expect(creates() - before).toBe(1)
      const { db } = await auth.$context
      expect(await db.findMany({ model: 'billingCustomerSync', where: { field: 'referenceId', value: userId } })).toMatchObject([{ status: 'synced', attempts: 0 }])
      expect(mock.invalid).toEqual([])
    })

    it('twenty workers draining one pending sync push it once', async () => {
      const auth = ready()
      mock.mode = 'error'
      const { body } = await signUp(auth, { email: `drain-${dialect}@example.com` })
      await auth.billingPlugin.idle()
      mock.mode = 'ok'
      auth.clock.advance(retryDelayMs(1))
      const before = creates()
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => auth.api.syncBillingCustomers({ body: { referenceId: body.user.id } })))
      expect(outcomes.flatMap((outcome) => outcome.customers).filter((outcome) => outcome.status === 'synced')).toHaveLength(1)
      expect(creates() - before).toBe(1)
      expect(mock.customers.get(body.user.id)).toMatchObject({ email: `drain-${dialect}@example.com` })
    })

    it('an email change is pushed', async () => {
      const auth = ready()
      const { body } = await signUp(auth, { email: `before-${dialect}@example.com` })
      await auth.billingPlugin.idle()
      const { db } = await auth.$context
      await db.update({ model: 'user', where: { field: 'id', value: body.user.id }, update: { email: `after-${dialect}@example.com` } })
      await auth.billingPlugin.idle()
      expect(mock.customers.get(body.user.id)).toMatchObject({ email: `after-${dialect}@example.com` })
    })
  })
}
