/**
 * The plugin on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured (there, parallel deliveries run on pooled connections and
 * really interleave). Migrations create the tables and the unique index on
 * webhook-id; twenty concurrent copies of one delivery apply once; events
 * about one new entity delivered at once all land, in version order (to the
 * microsecond); the cancel sequence delivered all at once ends in the right
 * state; a real deadlock is reported as `DEADLOCK`.
 */
import { DatabaseError, runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { customer, customerState, envelope, everyEvent, order, subscription } from './fixtures/payloads.js'
import { billingAuth, deliver, messageId, newUser, get, type BillingAuth } from './fixtures/harness.js'
import { isTemporary } from '../src/events/receive.js'

type Json = Record<string, unknown>

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`billing plugin on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: BillingAuth | undefined
    const handled: string[] = []

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = billingAuth({ webhooks: { onPayload: (_event, ctx) => void handled.push(ctx.webhookId) } }, { database: backend.factory })
      const migration = await runMigrations(auth)
      expect(migration.applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    function ready(): BillingAuth {
      if (!auth) throw new Error('backend not ready')
      return auth
    }

    async function rowsOf(model: string, where?: { field: string; value: string }) {
      const { db } = await ready().$context
      return db.findMany<Json>({ model, ...(where ? { where } : {}) })
    }

    it('migrations create every table and a second run has nothing to do', async () => {
      const auth = ready()
      const { adapter } = await auth.$context
      for (const model of ['billingEvent', 'billingCustomer', 'billingSubscription', 'billingOrder', 'billingBenefitGrant', 'billingCustomerMeter']) {
        expect(await adapter.count({ model })).toBe(0)
      }
      expect((await runMigrations(auth)).statements).toEqual([])
    })

    it('twenty concurrent copies of one delivery: one applied, nineteen duplicates, one log row, handlers once', async () => {
      const auth = ready()
      const id = messageId()
      const body = JSON.stringify(everyEvent()['order.paid'])
      const replies = await Promise.all(Array.from({ length: 20 }, (_, index) => deliver(auth, { body, id, scheme: index % 2 ? 'standard' : 'secret-bytes' })))
      expect(replies.every((reply) => reply.status === 200)).toBe(true)
      expect(replies.filter((reply) => reply.body.status === 'applied')).toHaveLength(1)
      expect(replies.filter((reply) => reply.body.status === 'duplicate')).toHaveLength(19)
      expect(await rowsOf('billingEvent', { field: 'webhookId', value: id })).toHaveLength(1)
      expect(await rowsOf('billingOrder', { field: 'id', value: order().id as string })).toMatchObject([{ status: 'paid', paid: true }])
      expect(handled.filter((webhookId) => webhookId === id)).toHaveLength(1)
    })

    it('the raw payload of a large event is kept byte for byte', async () => {
      const auth = ready()
      const big = JSON.stringify(envelope('customer.created', customer({ id: `cus-big-${dialect}`, metadata: { note: 'é'.repeat(200_000) } })))
      const id = messageId()
      expect((await deliver(auth, { body: big, id })).body.status).toBe('applied')
      const [event] = await rowsOf('billingEvent', { field: 'webhookId', value: id })
      expect(event?.payload).toBe(big)
    })

    it('different events about one new subscription, delivered at once, all land and the newest wins', async () => {
      const auth = ready()
      const id = `sub-race-${dialect}`
      const customerId = `cus-race-${dialect}`
      const versions = Array.from({ length: 8 }, (_, index) => `2026-01-01T10:00:0${index}.000000Z`)
      const deliveries = versions.map((modified, index) =>
        envelope('subscription.updated', subscription({ id, customer_id: customerId, status: 'active', amount: 1000 + index, modified_at: modified }, { id: customerId, modified_at: modified })),
      )
      const replies = await Promise.all(deliveries.map((event) => deliver(auth, event)))
      expect(replies.map((reply) => reply.body.status)).toEqual(versions.map(() => 'applied'))
      expect(await rowsOf('billingSubscription', { field: 'id', value: id })).toMatchObject([{ amount: 1007, modifiedAt: new Date('2026-01-01T10:00:07Z') }])
      expect(await rowsOf('billingCustomer', { field: 'id', value: customerId })).toHaveLength(1)
    })

    it('the cancel sequence delivered all at once ends canceled', async () => {
      const auth = ready()
      const id = `sub-cancel-${dialect}`
      const customerId = `cus-cancel-${dialect}`
      const cancel = { id, customer_id: customerId, status: 'active', cancel_at_period_end: true, canceled_at: '2026-01-10T12:00:00.000000Z', modified_at: '2026-01-10T12:00:00.000000Z' }
      const ended = { ...cancel, status: 'canceled', ended_at: '2026-02-01T09:00:00.000000Z', modified_at: '2026-02-01T09:00:00.000000Z' }
      const who = { id: customerId }
      const replies = await Promise.all([
        deliver(auth, envelope('subscription.revoked', subscription(ended, who))),
        deliver(auth, envelope('subscription.updated', subscription(cancel, who))),
        deliver(auth, envelope('subscription.updated', subscription(ended, who))),
        deliver(auth, envelope('subscription.canceled', subscription(cancel, who))),
        deliver(auth, envelope('order.created', order({ id: `order-${dialect}`, customer_id: customerId }, { customer: customer(who), subscription: null }))),
      ])
      expect(replies.map((reply) => reply.body.status)).toEqual(['applied', 'applied', 'applied', 'applied', 'applied'])
      expect(await rowsOf('billingSubscription', { field: 'id', value: id })).toMatchObject([{ status: 'canceled', active: false, endedAt: new Date('2026-02-01T09:00:00Z') }])
    })

    it('two customer states at once: the newer one is what remains', async () => {
      const auth = ready()
      const customerId = `cus-state-${dialect}`
      const newer = envelope('customer.state_changed', customerState({ id: customerId, active_subscriptions: [], granted_benefits: [], active_meters: [] }), '2026-03-01T00:00:00.000000Z')
      const older = envelope('customer.state_changed', customerState({ id: customerId }), '2026-02-01T00:00:00.000000Z')
      const replies = await Promise.all([deliver(auth, older), deliver(auth, newer)])
      expect(replies.map((reply) => reply.body.status)).toEqual(['applied', 'applied'])
      const { db } = await auth.$context
      const active = await db.count({ model: 'billingSubscription', where: [{ field: 'customerId', value: customerId }, { field: 'active', value: true }] })
      expect(active).toBe(0)
    })

    it('a newer state and an older event about a subscription it left out, at once: the subscription ends outside the set', async () => {
      const auth = ready()
      for (let round = 0; round < 5; round++) {
        const customerId = `cus-settle-${dialect}-${round}`
        const subscriptionId = `sub-settle-${dialect}-${round}`
        // Stored newer than the customer embedded in the events: their customer writes are skipped, and lock the row
        // explicitly (apply.ts), so the state and the event still run one after the other.
        await deliver(auth, envelope('customer.updated', customer({ id: customerId, modified_at: '2026-02-15T00:00:00.000000Z' })))
        const state = envelope('customer.state_changed', customerState({ id: customerId, active_subscriptions: [], granted_benefits: [], active_meters: [] }), '2026-03-01T00:00:00.000000Z')
        const older = envelope('subscription.active', subscription({ id: subscriptionId, customer_id: customerId, status: 'active', modified_at: '2026-01-05T00:00:00.000000Z' }, { id: customerId }))
        const replies = await Promise.all([deliver(auth, state), deliver(auth, older)])
        expect(replies.map((reply) => reply.body.status)).toEqual(['applied', 'applied'])
        expect(await rowsOf('billingSubscription', { field: 'id', value: subscriptionId })).toMatchObject([{ status: 'active', active: false }])
      }
    })

    it('two updates a microsecond apart, delivered at once: the later one wins', async () => {
      const auth = ready()
      const id = `sub-micro-${dialect}`
      const customerId = `cus-micro-${dialect}`
      const updates = [2, 1, 3, 0].map((micro) =>
        envelope('subscription.updated', subscription({ id, customer_id: customerId, status: 'active', amount: 1000 + micro, modified_at: `2026-01-01T10:00:00.00000${micro}Z` }, { id: customerId })),
      )
      const replies = await Promise.all(updates.map((event) => deliver(auth, event)))
      expect(replies.map((reply) => reply.body.status)).toEqual(['applied', 'applied', 'applied', 'applied'])
      expect(await rowsOf('billingSubscription', { field: 'id', value: id })).toMatchObject([{ amount: 1003, version: Date.parse('2026-01-01T10:00:00Z') * 1000 + 3 }])
    })

    // SQLite runs one transaction at a time, so two can never hold a lock each: there is no deadlock to provoke.
    if (dialect !== 'sqlite') {
      it('a real deadlock reaches billing as DatabaseError DEADLOCK, which it treats as temporary', async () => {
        const auth = ready()
        const { db } = await auth.$context
        const [a, b] = await Promise.all(
          ['a', 'b'].map((name) =>
            db.create<Json & { id: string }>({
              model: 'billingEvent',
              data: { webhookId: messageId(), type: null, status: 'failed', error: name, payload: '{}', receivedAt: auth.clock.now(), processedAt: null },
            }),
          ),
        )
        // Two transactions lock the same two rows in opposite orders: the database rolls one back.
        let aLocked!: () => void
        let bLocked!: () => void
        const aHeld = new Promise<void>((resolve) => (aLocked = resolve))
        const bHeld = new Promise<void>((resolve) => (bLocked = resolve))
        const lockBoth = (first: string, second: string, held: () => void, other: Promise<void>) =>
          db.transaction(async (tx) => {
            await tx.lock({ model: 'billingEvent', where: { field: 'id', value: first } })
            held()
            await other
            await tx.lock({ model: 'billingEvent', where: { field: 'id', value: second } })
          })
        const results = await Promise.allSettled([lockBoth(String(a?.id), String(b?.id), aLocked, bHeld), lockBoth(String(b?.id), String(a?.id), bLocked, aHeld)])
        const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))
        expect(refused).toHaveLength(1)
        expect(refused[0]).toBeInstanceOf(DatabaseError)
        expect(refused[0]).toMatchObject({ code: 'DEADLOCK' })
        expect(isTemporary(refused[0])).toBe(true)
      })
    }

    it('the reading routes and server calls work on the backend', async () => {
      const auth = ready()
      const user = await newUser(auth)
      const linked = { id: `cus-reader-${dialect}`, external_id: user.id }
      await deliver(auth, envelope('subscription.active', subscription({ id: `sub-reader-${dialect}`, customer_id: linked.id, status: 'active', modified_at: '2026-01-01T09:00:06.000000Z' }, linked)))
      expect(await auth.api.hasActiveSubscription({ body: { userId: user.id } })).toBe(true)
      const state = await get(auth, '/customer/state', user)
      expect(state.body).toMatchObject({ id: linked.id, activeSubscriptions: [{ id: `sub-reader-${dialect}`, meters: [{ consumedUnits: 12.5 }] }] })
      expect((await get(auth, '/customer/subscriptions/list', user)).body).toMatchObject({ total: 1 })
    })
  })
}
