/**
 * Event log retention (docs/billing.md#event-log-retention): with
 * `eventLog.retentionDays`, `auth.api.cleanup()` deletes applied and ignored
 * events older than that, keeps pending and failed ones (replay needs them)
 * and every newer one; without it the log is kept whole.
 */
import { describe, expect, it } from 'vitest'
import { billing } from '../src/plugin.js'
import { customer, envelope } from './fixtures/payloads.js'
import { billingAuth, deliver, rows, type TestAuth } from './fixtures/harness.js'

const DAY = 86_400_000

async function logEvent(auth: TestAuth, webhookId: string, status: string, receivedAt: Date) {
  const { db } = await auth.$context
  return db.create({ model: 'billingEvent', data: { webhookId, type: 'customer.created', status, payload: '{}', receivedAt, attempts: 1 } })
}

describe('billing event log retention', () => {
  it('deletes settled events past the retention, keeps pending, failed and recent ones', async () => {
    const auth = billingAuth({ eventLog: { retentionDays: 30 } })
    const delivered = await deliver(auth, envelope('customer.created', customer()))
    expect(delivered.body.status).toBe('applied')
    auth.clock.advance(31 * DAY)
    const now = auth.clock.now().getTime()
    await logEvent(auth, 'old-ignored', 'ignored', new Date(now - 40 * DAY))
    const kept = await Promise.all([
      logEvent(auth, 'old-failed', 'failed', new Date(now - 40 * DAY)),
      logEvent(auth, 'old-pending', 'pending', new Date(now - 40 * DAY)),
      logEvent(auth, 'recent-applied', 'applied', new Date(now - 29 * DAY)),
    ])

    const { deleted } = await auth.api.cleanup()
    // The delivered event (applied, 31 days old) and the old ignored one.
    expect(deleted.billingEvent).toBe(2)
    const left = (await rows(auth, 'billingEvent')).map((row) => row.id).sort()
    expect(left).toEqual(kept.map((row) => row.id).sort())
  })

  it('without a retention the log is kept whole', async () => {
    const auth = billingAuth()
    await logEvent(auth, 'ancient', 'applied', new Date(auth.clock.now().getTime() - 3650 * DAY))
    const { deleted } = await auth.api.cleanup()
    expect(deleted.billingEvent).toBeUndefined()
    expect(await rows(auth, 'billingEvent')).toHaveLength(1)
  })

  it('refuses a retention shorter than the redelivery floor of 7 days', () => {
    expect(() => billing({ webhooks: { secret: 'whsec_x' }, eventLog: { retentionDays: 3 } })).toThrow(/at least 7/)
    expect(() => billing({ webhooks: { secret: 'whsec_x' }, eventLog: { retentionDays: Number.NaN } })).toThrow(/at least 7/)
  })
})
