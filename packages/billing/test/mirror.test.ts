/**
 * The local mirror: every event type applied, out-of-order delivery (the
 * platform's documented cancel and renewal sequences in every order), the
 * customer state replacing what the customer has, ordering at the
 * platform's microsecond precision, and replay of events an older version
 * could not apply or whose handlers never finished.
 */
import { describe, expect, it } from 'vitest'
import {
  CUSTOMER_ID,
  customer,
  customerState,
  envelope,
  everyEvent,
  GRANT_ID,
  grant,
  ORDER_ID,
  order,
  SUBSCRIPTION_ID,
  subscription,
} from './fixtures/payloads.js'
import { billingAuth, deliver, messageId, row, rows, type BillingAuth } from './fixtures/harness.js'

type Json = Record<string, unknown>

/** A mirror row's version: microseconds since the epoch. */
function microseconds(iso: string): number {
  return Date.parse(iso) * 1000
}

async function deliverAll(auth: BillingAuth, events: readonly Json[]): Promise<void> {
  for (const event of events) {
    const reply = await deliver(auth, event)
    expect(reply.body.status).toBe('applied')
  }
}

/** Every ordering of `items` (n! of them). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]]
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]))
}

/** Every order of a sequence is many deliveries: a correctness check, given room on a loaded machine. */
const PERMUTATION_TIMEOUT = 180_000

describe('each event type applied', () => {
  const events = everyEvent()
  const cases: Record<string, (auth: BillingAuth) => Promise<void>> = {
    'customer.created': async (auth) => {
      expect(await row(auth, 'billingCustomer', CUSTOMER_ID)).toMatchObject({
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        externalId: null,
        metadata: { plan_source: 'pricing-page', seats: 3, beta: true },
        billingAddress: { line1: '12 Analytical Row', postalCode: 'SW1A 1AA', city: 'London', country: 'GB' },
        taxId: ['GB123456789', 'gb_vat'],
        deletedAt: null,
      })
    },
    'customer.updated': async (auth) => expect(await row(auth, 'billingCustomer', CUSTOMER_ID)).toMatchObject({ name: 'Ada King' }),
    'customer.deleted': async (auth) =>
      expect(await row(auth, 'billingCustomer', CUSTOMER_ID)).toMatchObject({ deletedAt: new Date('2026-01-03T09:00:00Z') }),
    'customer.state_changed': async (auth) => {
      expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'active', active: true, amount: 2000 })
      expect(await row(auth, 'billingBenefitGrant', GRANT_ID)).toMatchObject({ isGranted: true, benefitType: 'license_keys', properties: { displayKey: '****-6F2A' } })
      expect(await rows(auth, 'billingCustomerMeter')).toMatchObject([{ balance: 987.5, active: true }])
    },
    'benefit_grant.created': async (auth) =>
      expect(await row(auth, 'billingBenefitGrant', GRANT_ID)).toMatchObject({
        isGranted: true,
        benefitType: 'license_keys',
        benefitMetadata: { tier: 'pro' },
        properties: { licenseKeyId: '3b5d7f9b-1d3f-4b5d-9f1b-3d5f7b9d1f30', displayKey: '****-6F2A' },
      }),
    'benefit_grant.cycled': async (auth) => expect(await row(auth, 'billingBenefitGrant', GRANT_ID)).toMatchObject({ benefitType: 'meter_credit', isGranted: true }),
    'benefit_grant.revoked': async (auth) =>
      expect(await row(auth, 'billingBenefitGrant', GRANT_ID)).toMatchObject({ isGranted: false, isRevoked: true, revokedAt: new Date('2026-03-01T09:00:00Z') }),
    'benefit_grant.updated': async (auth) => expect(await row(auth, 'billingBenefitGrant', GRANT_ID)).toMatchObject({ benefitType: 'github_repository' }),
    'order.created': async (auth) => {
      expect(await row(auth, 'billingOrder', ORDER_ID)).toMatchObject({ status: 'pending', paid: false, totalAmount: 2400, billingReason: 'subscription_create' })
      // The order's embedded subscription snapshot is mirrored too.
      expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'active', active: true })
    },
    'order.paid': async (auth) => expect(await row(auth, 'billingOrder', ORDER_ID)).toMatchObject({ status: 'paid', paid: true }),
    'order.updated': async (auth) => expect(await row(auth, 'billingOrder', ORDER_ID)).toMatchObject({ status: 'paid' }),
    'order.refunded': async (auth) => expect(await row(auth, 'billingOrder', ORDER_ID)).toMatchObject({ status: 'refunded', refundedAmount: 2000 }),
    'subscription.created': async (auth) => expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'incomplete', active: false }),
    'subscription.active': async (auth) =>
      expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'active', active: true, startedAt: new Date('2026-01-01T09:00:06Z') }),
    'subscription.updated': async (auth) => expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'active', active: true }),
    'subscription.canceled': async (auth) =>
      expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({
        active: true,
        cancelAtPeriodEnd: true,
        customerCancellationReason: 'too_expensive',
      }),
    'subscription.uncanceled': async (auth) => expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ cancelAtPeriodEnd: false }),
    'subscription.revoked': async (auth) =>
      expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'canceled', active: false, endedAt: new Date('2026-02-01T09:00:00Z') }),
  }
  const untracked = ['benefit.created', 'benefit.updated', 'checkout.created', 'checkout.updated', 'organization.updated', 'product.created', 'product.updated', 'refund.created', 'refund.updated']

  for (const [type, check] of Object.entries(cases)) {
    it(`${type} updates the mirror`, async () => {
      const auth = billingAuth()
      await deliverAll(auth, [events[type] as Json])
      await check(auth)
      if (type.startsWith('subscription.') || type.startsWith('order.') || type.startsWith('benefit_grant.')) {
        // The customer embedded in the event is mirrored as well.
        expect(await row(auth, 'billingCustomer', CUSTOMER_ID)).toMatchObject({ email: 'ada@example.com' })
      }
    })
  }

  for (const type of untracked) {
    it(`${type} is logged as applied and changes no mirror table`, async () => {
      const auth = billingAuth()
      await deliverAll(auth, [events[type] as Json])
      expect(await rows(auth, 'billingEvent')).toMatchObject([{ type, status: 'applied' }])
      for (const model of ['billingCustomer', 'billingSubscription', 'billingOrder', 'billingBenefitGrant', 'billingCustomerMeter']) {
        expect(await rows(auth, model)).toEqual([])
      }
    })
  }
})

describe('out-of-order delivery', () => {
  it('subscription.updated before subscription.created ends in the updated state', async () => {
    const auth = billingAuth()
    const { 'subscription.created': created, 'subscription.updated': updated } = everyEvent()
    await deliverAll(auth, [updated as Json, created as Json])
    expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({
      status: 'active',
      active: true,
      modifiedAt: new Date('2026-01-01T09:00:07Z'),
      version: microseconds('2026-01-01T09:00:07Z'),
    })
  })

  // Cancel at period end: updated → canceled; at period end: updated → revoked (the platform's documented sequence).
  const cancelFields = {
    status: 'active',
    started_at: '2026-01-01T09:00:06.000000Z',
    cancel_at_period_end: true,
    canceled_at: '2026-01-10T12:00:00.000000Z',
    ends_at: '2026-02-01T09:00:00.000000Z',
    modified_at: '2026-01-10T12:00:00.000000Z',
  }
  const endFields = { ...cancelFields, status: 'canceled', ended_at: '2026-02-01T09:00:00.000000Z', modified_at: '2026-02-01T09:00:00.000000Z' }
  const cancelSequence = [
    envelope('subscription.updated', subscription(cancelFields), '2026-01-10T12:00:00.100000Z'),
    envelope('subscription.canceled', subscription(cancelFields), '2026-01-10T12:00:00.100000Z'),
    envelope('subscription.updated', subscription(endFields), '2026-02-01T09:00:00.100000Z'),
    envelope('subscription.revoked', subscription(endFields), '2026-02-01T09:00:00.100000Z'),
  ]

  it('the cancel sequence in all 24 orders ends canceled, out of the active set', async () => {
    for (const ordering of permutations(cancelSequence)) {
      const auth = billingAuth()
      await deliverAll(auth, ordering)
      expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({
        status: 'canceled',
        active: false,
        cancelAtPeriodEnd: true,
        endedAt: new Date('2026-02-01T09:00:00Z'),
      })
    }
  }, PERMUTATION_TIMEOUT)

  it('the first half of the cancel sequence, shuffled, keeps the subscription active until the period ends', async () => {
    for (const ordering of permutations(cancelSequence.slice(0, 2))) {
      const auth = billingAuth()
      await deliverAll(auth, [everyEvent()['subscription.active'] as Json, ...ordering])
      expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'active', active: true, cancelAtPeriodEnd: true })
    }
  })

  // Renewal: subscription.updated → order.created → order.updated → order.paid (subscription_cycle), and the grant cycles.
  const renewed = { status: 'active', started_at: '2026-01-01T09:00:06.000000Z', current_period_start: '2026-02-01T09:00:00.000000Z', current_period_end: '2026-03-01T09:00:00.000000Z', modified_at: '2026-02-01T09:00:01.000000Z' }
  // The order embeds the subscription as it was when the order was made: before the period moved.
  const snapshot = { ...subscription({ status: 'active', started_at: '2026-01-01T09:00:06.000000Z', modified_at: '2026-01-01T09:00:07.000000Z' }) }
  const { customer: _c, product: _p, discount: _d, prices: _pr, meters: _m, pending_update: _u, custom_field_data: _f, ...embedded } = snapshot
  const cycleOrder = (fields: Json) =>
    order({ id: 'order-cycle-2', billing_reason: 'subscription_cycle', created_at: '2026-02-01T09:00:02.000000Z', ...fields }, { subscription: embedded })
  const renewalSequence = [
    envelope('subscription.updated', subscription(renewed), '2026-02-01T09:00:01.100000Z'),
    envelope('order.created', cycleOrder({}), '2026-02-01T09:00:02.100000Z'),
    envelope('order.updated', cycleOrder({ status: 'paid', paid: true, modified_at: '2026-02-01T09:00:03.000000Z' }), '2026-02-01T09:00:03.100000Z'),
    envelope('order.paid', cycleOrder({ status: 'paid', paid: true, modified_at: '2026-02-01T09:00:03.000000Z' }), '2026-02-01T09:00:03.200000Z'),
    envelope('benefit_grant.cycled', grant({ modified_at: '2026-02-01T09:00:04.000000Z' }), '2026-02-01T09:00:04.100000Z'),
  ]

  it('the renewal sequence in all 120 orders ends with the new period, the order paid and the grant cycled', async () => {
    for (const ordering of permutations(renewalSequence)) {
      const auth = billingAuth()
      await deliverAll(auth, [everyEvent()['subscription.updated'] as Json, ...ordering])
      expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({
        active: true,
        currentPeriodStart: new Date('2026-02-01T09:00:00Z'),
        currentPeriodEnd: new Date('2026-03-01T09:00:00Z'),
      })
      expect(await row(auth, 'billingOrder', 'order-cycle-2')).toMatchObject({ status: 'paid', paid: true, billingReason: 'subscription_cycle' })
      expect(await row(auth, 'billingBenefitGrant', GRANT_ID)).toMatchObject({ isGranted: true, modifiedAt: new Date('2026-02-01T09:00:04Z') })
    }
  }, PERMUTATION_TIMEOUT)

  it('two changes within one millisecond are ordered by the microseconds the platform sent', async () => {
    const later = envelope('subscription.updated', subscription({ status: 'active', amount: 2000, modified_at: '2026-01-01T09:00:07.000002Z' }))
    const earlier = envelope('subscription.updated', subscription({ status: 'active', amount: 1000, modified_at: '2026-01-01T09:00:07.000001Z' }))
    for (const ordering of [[later, earlier], [earlier, later]]) {
      const auth = billingAuth()
      await deliverAll(auth, ordering)
      expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({
        amount: 2000,
        modifiedAt: new Date('2026-01-01T09:00:07.000Z'),
        version: microseconds('2026-01-01T09:00:07Z') + 2,
      })
    }
  })

  it('a customer update older than the stored one changes nothing; a deletion always lands', async () => {
    const auth = billingAuth()
    const newer = envelope('customer.updated', customer({ name: 'Newer', modified_at: '2026-01-05T00:00:00.000000Z' }))
    const older = envelope('customer.updated', customer({ name: 'Older', modified_at: '2026-01-04T00:00:00.000000Z' }))
    await deliverAll(auth, [newer, older])
    expect(await row(auth, 'billingCustomer', CUSTOMER_ID)).toMatchObject({ name: 'Newer', deletedAt: null })
    // A deletion moves the version to its deleted_at even when modified_at stayed behind.
    const deleted = envelope('customer.deleted', customer({ name: 'Newer', modified_at: '2026-01-04T00:00:00.000000Z', deleted_at: '2026-01-06T00:00:00.000000Z' }))
    await deliverAll(auth, [deleted, older])
    expect(await row(auth, 'billingCustomer', CUSTOMER_ID)).toMatchObject({ name: 'Newer', deletedAt: new Date('2026-01-06T00:00:00Z') })
  })
})

describe('customer.state_changed', () => {
  it('replaces what the customer has: unlisted subscriptions, grants and meters leave the set', async () => {
    const auth = billingAuth()
    await deliverAll(auth, [everyEvent()['customer.state_changed'] as Json])
    const later = customerState({ active_subscriptions: [], granted_benefits: [], active_meters: [] })
    await deliverAll(auth, [envelope('customer.state_changed', later, '2026-01-20T00:00:00.000000Z')])
    expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ active: false, version: microseconds('2026-01-20T00:00:00Z') })
    expect(await row(auth, 'billingBenefitGrant', GRANT_ID)).toMatchObject({ isGranted: false })
    expect(await rows(auth, 'billingCustomerMeter')).toMatchObject([{ active: false }])
  })

  it('an older state arriving after a newer one changes nothing', async () => {
    const auth = billingAuth()
    const newer = envelope('customer.state_changed', customerState({ active_subscriptions: [], granted_benefits: [], active_meters: [] }), '2026-01-20T00:00:00.000000Z')
    const older = envelope('customer.state_changed', customerState(), '2026-01-10T00:00:00.000000Z')
    await deliverAll(auth, [newer, older])
    expect(await rows(auth, 'billingSubscription')).toEqual([])
    expect(await rows(auth, 'billingBenefitGrant')).toEqual([])
  })

  it('a state older by a microsecond than the one applied changes nothing', async () => {
    const auth = billingAuth()
    const newer = envelope('customer.state_changed', customerState({ active_subscriptions: [], granted_benefits: [], active_meters: [] }), '2026-01-20T00:00:00.000501Z')
    const older = envelope('customer.state_changed', customerState(), '2026-01-20T00:00:00.000500Z')
    await deliverAll(auth, [newer, older])
    expect(await rows(auth, 'billingSubscription')).toEqual([])
    expect(await row(auth, 'billingCustomer', CUSTOMER_ID)).toMatchObject({ stateVersion: microseconds('2026-01-20T00:00:00Z') + 501 })
  })

  it('an entity event older than the newest state, for an item that state left out, starts outside the set', async () => {
    const auth = billingAuth()
    const empty = envelope('customer.state_changed', customerState({ active_subscriptions: [], granted_benefits: [], active_meters: [] }), '2026-01-20T00:00:00.000000Z')
    await deliverAll(auth, [empty, everyEvent()['subscription.active'] as Json, everyEvent()['benefit_grant.created'] as Json])
    expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'active', active: false, version: microseconds('2026-01-20T00:00:00Z') })
    expect(await row(auth, 'billingBenefitGrant', GRANT_ID)).toMatchObject({ isGranted: false })
  })

  it('a subscription event newer than the state still applies on top of it; an older one does not undo it', async () => {
    const auth = billingAuth()
    const state = envelope('customer.state_changed', customerState(), '2026-01-15T00:00:00.000000Z')
    const revoked = envelope('subscription.revoked', subscription({ status: 'canceled', modified_at: '2026-01-16T00:00:00.000000Z', ended_at: '2026-01-16T00:00:00.000000Z' }))
    const stale = envelope('subscription.created', subscription({ status: 'incomplete' }))
    await deliverAll(auth, [state, stale])
    expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'active', active: true })
    await deliverAll(auth, [revoked])
    expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'canceled', active: false })
  })
})

describe('replay', () => {
  async function logAsOlderVersion(auth: BillingAuth, status: 'failed' | 'ignored', payload: Json, error: string) {
    const { db } = await auth.$context
    // What an older version wrote for an event it could not apply: the raw body, kept for replay.
    return db.create({
      model: 'billingEvent',
      data: { webhookId: messageId(), type: payload.type, status, error, payload: JSON.stringify(payload), receivedAt: auth.clock.now(), processedAt: auth.clock.now() },
    })
  }

  it('applies failed events after an upgrade, and ignored ones when asked', async () => {
    const calls: string[] = []
    const auth = billingAuth({ webhooks: { onPayload: (event, ctx) => void calls.push(`${event.type}:${ctx.replayed}`) } })
    const failed = await logAsOlderVersion(auth, 'failed', everyEvent()['order.paid'] as Json, 'Failed to parse event')
    const ignored = await logAsOlderVersion(auth, 'ignored', everyEvent()['customer.state_changed'] as Json, 'Unknown event type: customer.state_changed')

    const first = await auth.api.replayBillingEvents({ body: {} })
    expect(first.events).toEqual([{ id: failed.id, webhookId: failed.webhookId, type: 'order.paid', status: 'applied', error: null }])
    expect(await row(auth, 'billingOrder', ORDER_ID)).toMatchObject({ status: 'paid' })
    expect(await row(auth, 'billingEvent', String(ignored.id))).toMatchObject({ status: 'ignored' })

    const second = await auth.api.replayBillingEvents({ body: { statuses: ['ignored'] } })
    expect(second.events).toMatchObject([{ id: ignored.id, status: 'applied' }])
    expect(await row(auth, 'billingBenefitGrant', GRANT_ID)).toMatchObject({ isGranted: true })
    expect(calls).toEqual(['order.paid:true', 'customer.state_changed:true'])
    expect(await rows(auth, 'billingEvent')).toMatchObject([
      { status: 'applied', error: null, attempts: 2 },
      { status: 'applied', error: null, attempts: 2 },
    ])
  })

  it('a payload that still fails stays failed, with the attempt counted; a type still unknown stays ignored', async () => {
    const auth = billingAuth()
    const broken = await deliver(auth, { body: JSON.stringify(envelope('order.paid', { ...order(), total_amount: 1.5 })) })
    expect(broken.status).toBe(202)
    const unknown = await deliver(auth, { body: JSON.stringify({ type: 'member.created', timestamp: '2026-01-01T00:00:00Z', data: {} }) })
    expect(unknown.status).toBe(202)
    const { events } = await auth.api.replayBillingEvents({ body: { statuses: ['failed', 'ignored'] } })
    expect(events).toMatchObject([
      { type: 'order.paid', status: 'failed', error: 'Failed to parse event' },
      { type: 'member.created', status: 'ignored', error: 'Unknown event type: member.created' },
    ])
    expect((await rows(auth, 'billingEvent')).map((event) => event.attempts)).toEqual([2, 2])
    expect(await rows(auth, 'billingOrder')).toEqual([])
  })

  it('replaying an old event never overwrites newer state', async () => {
    const auth = billingAuth()
    await deliverAll(auth, [everyEvent()['subscription.revoked'] as Json])
    await logAsOlderVersion(auth, 'failed', everyEvent()['subscription.active'] as Json, 'Failed to parse event')
    await auth.api.replayBillingEvents({ body: {} })
    expect(await row(auth, 'billingSubscription', SUBSCRIPTION_ID)).toMatchObject({ status: 'canceled', active: false })
  })

  it('two replays at once apply an event once', async () => {
    const calls: string[] = []
    const auth = billingAuth({ webhooks: { onOrderPaid: (event) => void calls.push(event.data.id) } })
    await logAsOlderVersion(auth, 'failed', everyEvent()['order.paid'] as Json, 'Failed to parse event')
    const results = await Promise.all([auth.api.replayBillingEvents({ body: {} }), auth.api.replayBillingEvents({ body: {} })])
    const statuses = results.flatMap((result) => result.events.map((event) => event.status)).sort()
    expect(statuses).toEqual(['applied', 'skipped'])
    expect(calls).toEqual([ORDER_ID])
  })

  it('an ignored event that fails to apply on replay is marked failed, with the error', async () => {
    let broken = true
    const auth = billingAuth(
      {},
      {
        databaseHooks: {
          billingOrder: {
            create: {
              before: () => {
                if (broken) throw new Error('disk quota exceeded')
              },
            },
          },
        },
      },
    )
    const ignored = await logAsOlderVersion(auth, 'ignored', everyEvent()['order.paid'] as Json, 'Unknown event type: order.paid')
    const { events } = await auth.api.replayBillingEvents({ body: { statuses: ['ignored'] } })
    expect(events).toEqual([{ id: ignored.id, webhookId: ignored.webhookId, type: 'order.paid', status: 'failed', error: 'Failed to apply event: Error: disk quota exceeded' }])
    expect(await row(auth, 'billingEvent', String(ignored.id))).toMatchObject({ status: 'failed', error: 'Failed to apply event: Error: disk quota exceeded', attempts: 2 })
    broken = false
    // Failed now, so the default replay takes it.
    expect((await auth.api.replayBillingEvents({ body: {} })).events).toMatchObject([{ id: ignored.id, status: 'applied' }])
    expect(await rows(auth, 'billingOrder')).toMatchObject([{ status: 'paid' }])
  })

  it('replays only the named events', async () => {
    const auth = billingAuth()
    const a = await logAsOlderVersion(auth, 'failed', everyEvent()['order.paid'] as Json, 'x')
    await logAsOlderVersion(auth, 'failed', everyEvent()['customer.created'] as Json, 'x')
    const { events } = await auth.api.replayBillingEvents({ body: { ids: [String(a.id)] } })
    expect(events.map((event) => event.id)).toEqual([a.id])
    expect(await rows(auth, 'billingCustomer')).toHaveLength(1)
    expect((await rows(auth, 'billingEvent')).map((event) => event.status)).toEqual(['applied', 'failed'])
  })
})

describe('an event whose handlers never finished', () => {
  /**
   * A delivery whose handler is still running (or whose process died while it
   * ran): the mirror has the event, the log row is `pending`. `release` lets
   * the stalled handler return.
   */
  async function stalledDelivery(options: { pendingGraceSeconds?: number } = {}) {
    const calls: string[] = []
    let entered!: () => void
    let release!: () => void
    const inHandler = new Promise<void>((resolve) => (entered = resolve))
    const gate = new Promise<void>((resolve) => (release = resolve))
    const auth = billingAuth({
      webhooks: {
        ...options,
        onOrderPaid: async (event, ctx) => {
          calls.push(`${event.data.id}:${ctx.replayed}`)
          if (!ctx.replayed) {
            entered()
            await gate
          }
        },
      },
    })
    const delivery = deliver(auth, everyEvent()['order.paid'] as Json)
    await inHandler
    return { auth, calls, delivery, release }
  }

  it('is pending, with the mirror applied, and the default replay leaves it alone during the grace period', async () => {
    const { auth, calls, delivery, release } = await stalledDelivery()
    expect(await rows(auth, 'billingEvent')).toMatchObject([{ type: 'order.paid', status: 'pending', attempts: 1 }])
    expect(await rows(auth, 'billingOrder')).toMatchObject([{ status: 'paid' }])
    auth.clock.advance(299_000)
    expect((await auth.api.replayBillingEvents({ body: {} })).events).toEqual([])
    release()
    expect((await delivery).body.status).toBe('applied')
    expect(await rows(auth, 'billingEvent')).toMatchObject([{ status: 'applied', attempts: 1 }])
    expect(calls).toEqual([`${ORDER_ID}:false`])
  })

  it('is replayed after the grace period: its handlers run again, once, and the stalled run cannot finish the row', async () => {
    const { auth, calls, delivery, release } = await stalledDelivery()
    auth.clock.advance(301_000)
    const [logged] = await rows(auth, 'billingEvent')
    const { events } = await auth.api.replayBillingEvents({ body: {} })
    expect(events).toEqual([{ id: logged?.id, webhookId: logged?.webhookId, type: 'order.paid', status: 'applied', error: null }])
    expect(calls).toEqual([`${ORDER_ID}:false`, `${ORDER_ID}:true`])
    expect(await rows(auth, 'billingEvent')).toMatchObject([{ status: 'applied', error: null, attempts: 2 }])
    // Nothing left to replay.
    expect((await auth.api.replayBillingEvents({ body: {} })).events).toEqual([])
    release()
    await delivery
    expect(await rows(auth, 'billingEvent')).toMatchObject([{ status: 'applied', attempts: 2 }])
    expect(await rows(auth, 'billingOrder')).toHaveLength(1)
  })

  it('the grace period is configurable (webhooks.pendingGraceSeconds), and a redelivery meanwhile is a duplicate', async () => {
    const { auth, calls, release } = await stalledDelivery({ pendingGraceSeconds: 60 })
    expect(await deliver(auth, { body: JSON.stringify(everyEvent()['order.paid']), id: String((await rows(auth, 'billingEvent'))[0]?.webhookId) })).toEqual({
      status: 200,
      body: { received: true, status: 'duplicate' },
    })
    auth.clock.advance(61_000)
    expect((await auth.api.replayBillingEvents({ body: { statuses: ['pending'] } })).events).toMatchObject([{ status: 'applied' }])
    expect(calls).toHaveLength(2)
    release()
  })

  it('two replays at once run its handlers once more, not twice', async () => {
    const { auth, calls, release } = await stalledDelivery()
    auth.clock.advance(301_000)
    const results = await Promise.all([auth.api.replayBillingEvents({ body: {} }), auth.api.replayBillingEvents({ body: {} })])
    expect(results.flatMap((result) => result.events.map((event) => event.status)).sort()).toEqual(['applied', 'skipped'])
    expect(calls).toEqual([`${ORDER_ID}:false`, `${ORDER_ID}:true`])
    release()
  })
})

describe('benefits from a grant event', () => {
  it('a revoked grant leaves the granted set', async () => {
    const auth = billingAuth()
    await deliverAll(auth, [everyEvent()['benefit_grant.created'] as Json])
    await deliverAll(auth, [envelope('benefit_grant.revoked', grant({ is_granted: false, is_revoked: true, revoked_at: '2026-02-01T00:00:00.000000Z', modified_at: '2026-02-01T00:00:00.000000Z' }))])
    expect(await row(auth, 'billingBenefitGrant', GRANT_ID)).toMatchObject({ isGranted: false, isRevoked: true, benefitId: (grant().benefit as Json).id })
  })
})
