/**
 * Customers on the billing platform (docs/billing.md#customers), against
 * the loopback mock: one customer per sign-up, created after the user's
 * transaction commits, even when twenty sign-ups race; a platform outage
 * never fails the sign-up and the pending sync is retried; email and name
 * changes are pushed; a deleted user's customer is deleted.
 */
import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { retryDelayMs } from '../src/outbound/customer-sync.js'
import { MOCK_TOKEN } from './platform-mock.js'
import { rows } from './fixtures/harness.js'
import { logText, outboundAuth, usePlatformMock, type OutboundAuth } from './fixtures/outbound.js'

const mock = usePlatformMock()

async function settle(auth: OutboundAuth) {
  await auth.billingPlugin.idle()
}

describe('createCustomerOnSignUp', () => {
  it('creates one customer with externalId = user id, email and name, after the sign-up commits', async () => {
    const auth = outboundAuth(mock())
    const { body } = await signUp(auth, { email: 'ada@example.com', name: 'Ada Lovelace' })
    await settle(auth)
    expect(mock().customers.get(body.user.id)).toMatchObject({ external_id: body.user.id, email: 'ada@example.com', name: 'Ada Lovelace' })
    expect(mock().requests.filter((request) => request.path === '/v1/customers/').every((request) => request.authorized)).toBe(true)
    expect(await rows(auth, 'billingCustomerSync')).toMatchObject([
      { referenceId: body.user.id, action: 'upsert', status: 'synced', attempts: 0, lastError: null, email: 'ada@example.com', name: 'Ada Lovelace' },
    ])
  })

  it('twenty sign-ups racing for one email: one user, one customer, one create call', async () => {
    const auth = outboundAuth(mock())
    const before = mock().requests.filter((request) => request.path === '/v1/customers/').length
    const replies = await Promise.all(Array.from({ length: 20 }, () => signUp(auth, { email: 'race@example.com' })))
    await settle(auth)
    const created = replies.filter((reply) => reply.response.status === 200)
    expect(created).toHaveLength(1)
    expect(replies.filter((reply) => reply.response.status === 422)).toHaveLength(19)
    expect([...mock().customers.values()].filter((customer) => customer.email === 'race@example.com')).toHaveLength(1)
    expect(mock().requests.filter((request) => request.path === '/v1/customers/').length - before).toBe(1)
    expect(await rows(auth, 'billingCustomerSync')).toHaveLength(1)
  })

  it('twenty workers draining one pending sync at once push it once', async () => {
    const auth = outboundAuth(mock())
    mock().mode = 'error'
    const { body } = await signUp(auth, { email: 'drain@example.com' })
    await settle(auth)
    mock().mode = 'ok'
    auth.clock.advance(retryDelayMs(1))
    const before = mock().requests.filter((request) => request.path === '/v1/customers/').length
    const context = await auth.$context
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => auth.api.syncBillingCustomers({ body: {} })),
    )
    const synced = outcomes.flatMap((outcome) => outcome.customers).filter((outcome) => outcome.status === 'synced')
    expect(synced).toEqual([{ referenceId: body.user.id, action: 'upsert', status: 'synced', error: null }])
    expect(mock().requests.filter((request) => request.path === '/v1/customers/').length - before).toBe(1)
    expect(mock().customers.has(body.user.id)).toBe(true)
    expect(await context.db.count({ model: 'billingCustomerSync', where: [{ field: 'status', value: 'pending' }] })).toBe(0)
  })

  it('a platform outage never fails the sign-up: the sync stays pending, visible, and is retried after its backoff', async () => {
    const auth = outboundAuth(mock())
    mock().mode = 'error'
    const reply = await signUp(auth, { email: 'outage@example.com' })
    expect(reply.response.status).toBe(200)
    await settle(auth)
    const [pending] = await rows(auth, 'billingCustomerSync')
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastError: 'The billing platform answered with an error' })
    expect(logText(auth)).toContain('billing customer sync failed; it will be retried')
    mock().mode = 'ok'
    // Not due yet: the backoff holds it.
    expect((await auth.api.syncBillingCustomers({ body: {} })).customers).toEqual([])
    auth.clock.advance(retryDelayMs(1))
    expect((await auth.api.syncBillingCustomers({ body: {} })).customers).toMatchObject([{ referenceId: reply.body.user.id, status: 'synced' }])
    expect(mock().customers.get(reply.body.user.id)).toMatchObject({ email: 'outage@example.com' })
    expect(logText(auth)).not.toContain(MOCK_TOKEN)
  })

  it('a customer that already exists (an earlier push whose answer was lost) is updated, not duplicated', async () => {
    const auth = outboundAuth(mock())
    mock().mode = 'error'
    const { body } = await signUp(auth, { email: 'lost@example.com', name: 'Lost' })
    await settle(auth)
    mock().mode = 'ok'
    const earlier = await fetch(`${mock().url}/v1/customers/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MOCK_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'individual', external_id: body.user.id, email: 'old@example.com' }),
    })
    expect(earlier.status).toBe(201)
    const { customers } = await auth.api.syncBillingCustomers({ body: { ignoreBackoff: true } })
    expect(customers).toEqual([{ referenceId: body.user.id, action: 'upsert', status: 'synced', error: null }])
    expect([...mock().customers.values()].filter((customer) => customer.external_id === body.user.id)).toMatchObject([{ email: 'lost@example.com', name: 'Lost' }])
  })
})

describe('user changes', () => {
  it('an email or name change is pushed by external id; an unrelated update is not', async () => {
    const auth = outboundAuth(mock())
    const { body } = await signUp(auth, { email: 'change@example.com', name: 'Before' })
    await settle(auth)
    const context = await auth.$context
    const patches = () => mock().requests.filter((request) => request.method === 'PATCH').length
    const before = patches()
    await context.db.update({ model: 'user', where: { field: 'id', value: body.user.id }, update: { image: 'https://example.com/a.png' } })
    await settle(auth)
    expect(patches()).toBe(before)
    await context.db.update({ model: 'user', where: { field: 'id', value: body.user.id }, update: { email: 'changed@example.com', name: 'After' } })
    await settle(auth)
    expect(patches()).toBe(before + 1)
    expect(mock().customers.get(body.user.id)).toMatchObject({ email: 'changed@example.com', name: 'After' })
    expect(await rows(auth, 'billingCustomerSync')).toMatchObject([{ status: 'synced', email: 'changed@example.com', name: 'After' }])
  })

  it("a deleted user's customer is deleted on the platform (onUserDeleted: delete, the default)", async () => {
    const auth = outboundAuth(mock())
    const { body } = await signUp(auth, { email: 'gone@example.com' })
    await settle(auth)
    expect(mock().customers.has(body.user.id)).toBe(true)
    const context = await auth.$context
    await context.db.delete({ model: 'user', where: { field: 'id', value: body.user.id } })
    await settle(auth)
    expect(mock().customers.has(body.user.id)).toBe(false)
    expect(await rows(auth, 'billingCustomerSync')).toMatchObject([{ action: 'delete', status: 'synced' }])
  })

  it('onUserDeleted: keep leaves the customer', async () => {
    const auth = outboundAuth(mock(), { onUserDeleted: 'keep' })
    const { body } = await signUp(auth, { email: 'kept@example.com' })
    await settle(auth)
    const context = await auth.$context
    await context.db.delete({ model: 'user', where: { field: 'id', value: body.user.id } })
    await settle(auth)
    expect(mock().customers.has(body.user.id)).toBe(true)
  })

  it('without createCustomerOnSignUp, sign-up calls nothing', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const before = mock().requests.length
    await signUp(auth, { email: 'quiet@example.com' })
    await settle(auth)
    expect(mock().requests.length).toBe(before)
    expect(await rows(auth, 'billingCustomerSync')).toEqual([])
  })
})
