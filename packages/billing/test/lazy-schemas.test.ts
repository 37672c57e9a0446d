/**
 * Start-up cost (docs/billing.md#events): importing the plugin, creating the
 * auth and serving the reading routes build none of the event schemas; the
 * first delivery loads them, once, and concurrent first deliveries share the load.
 */
import { expect, it, vi } from 'vitest'

let loads = 0
vi.mock('../src/schemas/events.js', async (importOriginal) => {
  loads += 1
  return importOriginal()
})

it('the event schemas load with the first delivery, not with the plugin', async () => {
  const { billingAuth, deliver, get, newUser } = await import('./fixtures/harness.js')
  const { customer, envelope } = await import('./fixtures/payloads.js')
  const auth = billingAuth()
  const user = await newUser(auth)
  expect((await get(auth, '/customer/state', user)).status).toBe(200)
  expect(loads).toBe(0)

  const replies = await Promise.all(
    ['a', 'b'].map((n) => deliver(auth, { body: JSON.stringify(envelope('customer.created', customer({ id: `cus-${n}`, external_id: user.id, email: `${n}@example.com` }))) })),
  )
  expect(replies.map((reply) => reply.body.status)).toEqual(['applied', 'applied'])
  expect(loads).toBe(1)
  // Parsed by the loaded schemas: a payload failing them is recorded as failed, still once loaded.
  const bad = await deliver(auth, { body: JSON.stringify(envelope('customer.created', { id: 42 })) })
  expect(bad).toMatchObject({ status: 202, body: { status: 'failed', message: 'Failed to parse event' } })
  expect(loads).toBe(1)
  const { rows } = await import('./fixtures/harness.js')
  const events = await rows(auth, 'billingEvent')
  expect(events.map((event) => event.status).sort()).toEqual(['applied', 'applied', 'failed'])
})
