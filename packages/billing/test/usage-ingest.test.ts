/**
 * POST /usage/ingest's security rules (docs/billing.md#security), through
 * `auth.handler` against the loopback platform mock: the route exists only
 * for the application's catalogue of events (server calls keep working
 * without one), each event's metadata passes its rule with every number
 * finite and within bounds, each user has a budget of requests whatever
 * their address, and an event the platform refuses fails its own caller
 * only, never the others batched with it.
 */
import { memoryStorage } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { authed } from '../../core/test/accounts.js'
import { newUser, type TestUser } from './fixtures/harness.js'
import { outboundAuth, USAGE_EVENTS, usePlatformMock, type OutboundAuth } from './fixtures/outbound.js'

const mock = usePlatformMock()

type Json = Record<string, unknown>

async function ingest(auth: OutboundAuth, caller: TestUser, json: Json | string, address = '203.0.113.7') {
  const headers: Record<string, string> = { 'x-forwarded-for': address }
  // A string is sent as it is: JSON that only a parser turns into a number (1e999) and no serializer writes.
  const init: RequestInit & { json?: unknown } = typeof json === 'string' ? { body: json, headers: { ...headers, 'content-type': 'application/json' } } : { json, headers }
  const response = await auth.handler(authed('/api/auth/usage/ingest', caller.cookie, { method: 'POST', ...init }))
  return { status: response.status, body: await response.json(), headers: response.headers }
}

const ingestRequests = () => mock().requests.filter((request) => request.path === '/v1/events/ingest').length

describe('without a usage catalogue', () => {
  it('the route does not exist (404, nothing sent); the server still reports usage through auth.api', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, usage: { batchWindowMs: 0 } })
    const user = await newUser(auth)
    const before = ingestRequests()
    expect(await ingest(auth, user, { event: 'api_call', metadata: { tokens: -100_000_000 } })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    expect(ingestRequests()).toBe(before)

    const answer = await auth.api.ingestUsage({ headers: new Headers({ cookie: user.cookie }), body: { event: 'server_side', metadata: { tokens: 5 } } })
    expect(answer).toEqual({ ingested: true, idempotencyKey: expect.any(String) })
    expect(mock().events.get(`${user.id}:${answer.idempotencyKey}`)).toMatchObject({ name: 'server_side', metadata: { tokens: 5 } })
  })
})

describe('the catalogue', () => {
  const catalogue = {
    api_call: { schema: z.object({ tokens: z.number().int() }), max: 10_000 },
    refund: { schema: z.object({ tokens: z.number().int() }), min: -500, max: 500 },
    export: { validate: (metadata: Json) => metadata.format === 'csv' || metadata.format === 'pdf' },
  }

  it('refuses an event it does not list, prototype names included, and sends nothing', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, usage: { batchWindowMs: 0, events: catalogue } })
    const user = await newUser(auth)
    const before = ingestRequests()
    for (const event of ['made_up', 'constructor', '__proto__', 'toString']) {
      expect(await ingest(auth, user, { event, metadata: { tokens: 1 } }), event).toMatchObject({ status: 400, body: { code: 'UNKNOWN_USAGE_EVENT', message: 'Unknown usage event' } })
    }
    expect(ingestRequests()).toBe(before)
  })

  it('refuses negative, infinite and out-of-bounds numbers, and metadata its schema or callback refuses', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, usage: { batchWindowMs: 0, events: catalogue } })
    const user = await newUser(auth)
    const before = ingestRequests()
    const refused = [
      { event: 'api_call', metadata: { tokens: -100_000_000 } },
      { event: 'api_call', metadata: { tokens: -1 } },
      { event: 'api_call', metadata: { tokens: 10_001 } },
      { event: 'api_call', metadata: { tokens: 1.5 } },
      { event: 'api_call', metadata: { tokens: 'many' } },
      { event: 'api_call', metadata: {} },
      { event: 'refund', metadata: { tokens: -501 } },
      { event: 'export', metadata: { format: 'exe' } },
    ]
    for (const body of refused) {
      expect(await ingest(auth, user, body), JSON.stringify(body)).toMatchObject({ status: 400, body: { code: expect.stringMatching(/^(INVALID_USAGE_EVENT|VALIDATION_ERROR)$/) } })
    }
    // JSON's 1e999 is Infinity once parsed.
    expect(await ingest(auth, user, '{"event":"api_call","metadata":{"tokens":1e999}}')).toMatchObject({ status: 400 })
    expect(ingestRequests()).toBe(before)
  })

  it('a bound no schema states still holds: an event with only a callback gets min 0', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, usage: { batchWindowMs: 0, events: { seats: { validate: () => true } } } })
    const user = await newUser(auth)
    expect(await ingest(auth, user, { event: 'seats', metadata: { delta: -3 } })).toMatchObject({ status: 400, body: { code: 'INVALID_USAGE_EVENT' } })
    expect(await ingest(auth, user, { event: 'seats', metadata: { delta: 3 } })).toMatchObject({ status: 200 })
  })

  it('accepts what the rule allows (negatives only where the event allows them) and sends the schema output', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, usage: { batchWindowMs: 0, events: catalogue } })
    const user = await newUser(auth)
    const call = await ingest(auth, user, { event: 'api_call', metadata: { tokens: 120, injected: 'stripped' } })
    const refund = await ingest(auth, user, { event: 'refund', metadata: { tokens: -20 } })
    const exported = await ingest(auth, user, { event: 'export', metadata: { format: 'csv' } })
    expect([call.status, refund.status, exported.status]).toEqual([200, 200, 200])
    expect(mock().events.get(`${user.id}:${call.body.idempotencyKey}`)?.metadata).toEqual({ tokens: 120 })
    expect(mock().events.get(`${user.id}:${refund.body.idempotencyKey}`)?.metadata).toEqual({ tokens: -20 })
  })

  it('an event without a schema or a callback, or with bounds the wrong way round, fails at start-up', () => {
    expect(() => outboundAuth(mock(), { usage: { events: { api_call: {} } } })).toThrow(/needs a schema or a validate callback/)
    expect(() => outboundAuth(mock(), { usage: { events: { api_call: { validate: () => true, min: 5, max: 1 } } } })).toThrow(/finite bounds/)
  })

  it("the server's own calls take any event name, but a listed event meets its rule there too", async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, usage: { batchWindowMs: 0, events: catalogue } })
    const user = await newUser(auth)
    const headers = new Headers({ cookie: user.cookie })
    await expect(auth.api.ingestUsage({ headers, body: { event: 'credit_adjustment', metadata: { tokens: -50 } } })).resolves.toMatchObject({ ingested: true })
    await expect(auth.api.ingestUsage({ headers, body: { event: 'api_call', metadata: { tokens: -50 } } })).rejects.toMatchObject({ code: 'INVALID_USAGE_EVENT' })
  })
})

describe('the per-user budget', () => {
  it('counts by user, whatever the address; other users keep theirs; the window ends; server calls do not count', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, usage: { batchWindowMs: 0, events: USAGE_EVENTS, rateLimit: { window: 60, max: 3 } } })
    const [ada, bob] = [await newUser(auth), await newUser(auth)]
    for (const address of ['203.0.113.1', '203.0.113.2', '198.51.100.3']) {
      expect((await ingest(auth, ada, { event: 'api_call' }, address)).status).toBe(200)
    }
    const refused = await ingest(auth, ada, { event: 'api_call' }, '192.0.2.44')
    expect(refused).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
    expect(refused.headers.get('x-retry-after')).toBe('60')
    expect((await ingest(auth, bob, { event: 'api_call' }, '203.0.113.1')).status).toBe(200)
    await expect(auth.api.ingestUsage({ headers: new Headers({ cookie: ada.cookie }), body: { event: 'api_call' } })).resolves.toMatchObject({ ingested: true })
    auth.clock.advance(60_000)
    expect((await ingest(auth, ada, { event: 'api_call' })).status).toBe(200)
  })

  it("lives in the rate-limit store core uses (here the database), under the user's key", async () => {
    const usage = { batchWindowMs: 0, events: USAGE_EVENTS, rateLimit: { window: 60, max: 2 } }
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, usage }, { rateLimit: { enabled: false, storage: 'database' } })
    const user = await newUser(auth)
    expect((await ingest(auth, user, { event: 'api_call' })).status).toBe(200)
    expect((await ingest(auth, user, { event: 'made_up' })).status).toBe(400)
    // The refused request counted too: the budget is spent before the event is looked at.
    expect((await ingest(auth, user, { event: 'api_call' })).status).toBe(429)
    const { db } = await auth.$context
    expect(await db.findMany({ model: 'rateLimit' })).toEqual([expect.objectContaining({ key: `user:${user.id}|/usage/ingest`, count: 2 })])
  })

  it('with a secondary storage, counts there (shared by every process), as core does', async () => {
    const storage = memoryStorage()
    const usage = { batchWindowMs: 0, events: USAGE_EVENTS, rateLimit: { window: 60, max: 1 } }
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, usage }, { secondaryStorage: storage })
    const user = await newUser(auth)
    expect((await ingest(auth, user, { event: 'api_call' })).status).toBe(200)
    expect((await ingest(auth, user, { event: 'api_call' })).status).toBe(429)
    expect(await storage.get(`rate-limit:user:${user.id}|/usage/ingest`)).toBe('2')
  })
})

describe('one refused event in a batch', () => {
  async function mixedBurst(auth: OutboundAuth) {
    const [ada, mallory] = [await newUser(auth), await newUser(auth)]
    // The platform refuses Mallory's event (content it validates more strictly than the catalogue does).
    mock().refuseEvents = (event) => event.external_customer_id === mallory.id
    const requests = Array.from({ length: 25 }, (_, index) => (index === 7 ? ingest(auth, mallory, { event: 'api_call', metadata: { index } }) : ingest(auth, ada, { event: 'api_call', metadata: { index } })))
    const replies = await Promise.all(requests)
    return { ada, mallory, replies, own: replies.filter((_reply, index) => index !== 7), refused: replies[7] }
  }

  it('fails only its own caller (422 USAGE_EVENT_REJECTED); the others of its batch are sent again and answered 200', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const before = ingestRequests()
    const { ada, mallory, own, refused } = await mixedBurst(auth)
    expect(own.map((reply) => reply.status)).toEqual(Array(24).fill(200))
    expect(refused).toMatchObject({ status: 422, body: { code: 'USAGE_EVENT_REJECTED', message: 'The billing platform refused the usage event' } })
    // Three calls of the 25 events (10, 10, 5), and the refused one's batch once more without it.
    expect(ingestRequests() - before).toBe(4)
    expect([...mock().events.values()].filter((event) => event.external_customer_id === mallory.id)).toEqual([])
    expect(own.every((reply) => mock().events.has(`${ada.id}:${reply.body.idempotencyKey}`))).toBe(true)
    expect(auth.logs.some((line) => line.message === 'billing usage event refused by the platform')).toBe(true)
  })

  it('when the refusal does not say which event, the batch is halved until the refused one stands alone', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    mock().refusalNamesEvents = false
    const before = ingestRequests()
    const { ada, own, refused } = await mixedBurst(auth)
    expect(own.map((reply) => reply.status)).toEqual(Array(24).fill(200))
    expect(refused).toMatchObject({ status: 422, body: { code: 'USAGE_EVENT_REJECTED' } })
    expect(own.every((reply) => mock().events.has(`${ada.id}:${reply.body.idempotencyKey}`))).toBe(true)
    // At most 2n - 1 calls for the batch of 10 holding it, besides the two other batches.
    expect(ingestRequests() - before).toBeLessThanOrEqual(2 + 19)
  })
})
