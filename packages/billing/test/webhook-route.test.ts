/**
 * POST /polar/webhooks through `auth.handler`: verification (both key
 * schemes, rotation, timestamps, tampering, re-serialisation: 403 with
 * nothing stored), the raw-body, encoding and size rules, exemption from
 * the origin check and rate limits, the event log (pending, applied,
 * duplicate, ignored, failed), idempotency under twenty concurrent copies,
 * temporary database failures (retried, or 503 with nothing stored), and
 * handlers.
 */
import { describe, expect, it } from 'vitest'
import { CUSTOMER_ID, customer, envelope, everyEvent, order, subscription } from './fixtures/payloads.js'
import { flakyDatabase } from './fixtures/flaky-database.js'
import { billingAuth, deliver, deliveryRequest, messageId, rows, sign, WEBHOOK_URL } from './fixtures/harness.js'

const created = envelope('customer.created', customer({ external_id: 'user-1' }))
const body = JSON.stringify(created)

describe('verification', () => {
  for (const scheme of ['secret-bytes', 'standard'] as const) {
    it(`accepts a delivery signed under the ${scheme} scheme and applies it`, async () => {
      const auth = billingAuth()
      const reply = await deliver(auth, { body, scheme })
      expect(reply).toEqual({ status: 200, body: { received: true, status: 'applied' } })
      expect(await rows(auth, 'billingCustomer')).toMatchObject([{ id: CUSTOMER_ID, externalId: 'user-1' }])
    })
  }

  it('accepts several signatures when one matches (key rotation)', async () => {
    const auth = billingAuth()
    const id = messageId()
    const at = auth.clock.now()
    const stale = sign(body, { id, at, scheme: 'standard', secret: `whsec_${Buffer.from('rotated-out-rotated-out-rotated!').toString('base64')}` })
    const good = sign(body, { id, at, scheme: 'secret-bytes' })
    expect((await deliver(auth, { body, id, at, signature: `${stale} ${good}` })).status).toBe(200)
  })

  const refusals: Array<[string, (auth: ReturnType<typeof billingAuth>) => Request, string]> = [
    ['a wrong signature', (auth) => deliveryRequest(auth, { body, signature: 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' }), 'No matching signature found'],
    ['a stale timestamp', (auth) => deliveryRequest(auth, { body, at: new Date(auth.clock.now().getTime() - 301_000) }), 'Message timestamp too old'],
    ['a future timestamp', (auth) => deliveryRequest(auth, { body, at: new Date(auth.clock.now().getTime() + 301_000) }), 'Message timestamp too new'],
    [
      'a tampered body',
      (auth) => {
        const id = messageId()
        const signature = sign(body, { id, at: auth.clock.now(), scheme: 'standard' })
        return deliveryRequest(auth, { body: body.replace('user-1', 'user-2'), id, signature })
      },
      'No matching signature found',
    ],
    [
      'a re-serialised body',
      (auth) => {
        const id = messageId()
        const signature = sign(body, { id, at: auth.clock.now(), scheme: 'standard' })
        return deliveryRequest(auth, { body: JSON.stringify(JSON.parse(body), null, 1), id, signature })
      },
      'No matching signature found',
    ],
    ['a signature made with another secret', (auth) => deliveryRequest(auth, { body, signature: sign(body, { id: 'x', at: auth.clock.now(), scheme: 'standard', secret: 'whsec_b3RoZXI=' }) }), 'No matching signature found'],
    ['missing signature headers', (auth) => new Request(WEBHOOK_URL, { method: 'POST', body, headers: { 'content-type': 'application/json' } }), 'Missing required headers'],
  ]
  for (const [name, build, message] of refusals) {
    it(`answers 403 with the verifier's message and stores nothing for ${name}`, async () => {
      const auth = billingAuth()
      const response = await auth.handler(build(auth))
      expect(response.status).toBe(403)
      expect(await response.json()).toEqual({ code: 'WEBHOOK_VERIFICATION_FAILED', message })
      expect(await rows(auth, 'billingEvent')).toEqual([])
      expect(await rows(auth, 'billingCustomer')).toEqual([])
    })
  }

  it('honours a configured tolerance', async () => {
    const auth = billingAuth({ webhooks: { toleranceSeconds: 30 } })
    const late = await deliver(auth, { body, at: new Date(auth.clock.now().getTime() - 31_000) })
    expect(late).toMatchObject({ status: 403, body: { message: 'Message timestamp too old' } })
    const wide = billingAuth({ webhooks: { toleranceSeconds: 3600 } })
    expect((await deliver(wide, { body, at: new Date(wide.clock.now().getTime() - 1800_000) })).status).toBe(200)
  })
})

describe('the request', () => {
  it('verifies and keeps the exact bytes: odd spacing and non-ASCII text are stored as sent', async () => {
    const auth = billingAuth()
    const spaced = `{ "type" : "customer.created",\n  "timestamp": "2026-01-01T09:00:30.000000Z", "data": ${JSON.stringify(customer({ name: 'Zoë Ødegård 🧾' }))} }`
    expect((await deliver(auth, { body: spaced })).status).toBe(200)
    const [event] = await rows(auth, 'billingEvent')
    expect(event?.payload).toBe(spaced)
    expect(await rows(auth, 'billingCustomer')).toMatchObject([{ name: 'Zoë Ødegård 🧾' }])
  })

  it('accepts a body of exactly 1 MiB and refuses one byte more with 413', async () => {
    const auth = billingAuth()
    const MiB = 1024 * 1024
    const padded = (length: number) => JSON.stringify(envelope('customer.created', customer({ metadata: { blob: 'x'.repeat(length) } })))
    const room = MiB - Buffer.byteLength(padded(0))
    const exact = padded(room)
    expect(Buffer.byteLength(exact)).toBe(MiB)
    expect(await deliver(auth, { body: exact })).toEqual({ status: 200, body: { received: true, status: 'applied' } })
    const over = padded(room + 1)
    expect(Buffer.byteLength(over)).toBe(MiB + 1)
    const response = await auth.handler(deliveryRequest(auth, { body: over }))
    expect(response.status).toBe(413)
    expect((await response.json()).code).toBe('PAYLOAD_TOO_LARGE')
    expect(await rows(auth, 'billingEvent')).toHaveLength(1)
  })

  it('refuses a body that is not valid UTF-8 with 400, even when its lenient decoding carries a valid signature', async () => {
    const auth = billingAuth()
    // Signed over text holding U+FFFD; sent with a lone 0xFF byte where that character was, which a lenient
    // decoder would turn back into the signed text.
    const text = JSON.stringify(envelope('customer.created', customer({ name: 'Ada \uFFFD' })))
    const id = messageId()
    const signed = deliveryRequest(auth, { body: text, id, signature: sign(text, { id, at: auth.clock.now(), scheme: 'standard' }) })
    const encoded = Buffer.from(text, 'utf8')
    const at = encoded.indexOf(Buffer.from('\uFFFD', 'utf8'))
    const bytes = Buffer.concat([encoded.subarray(0, at), Buffer.from([0xff]), encoded.subarray(at + 3)])
    const response = await auth.handler(new Request(signed.url, { method: 'POST', headers: signed.headers, body: bytes }))
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ code: 'INVALID_BODY_ENCODING', message: 'Request body is not valid UTF-8' })
    expect(await rows(auth, 'billingEvent')).toEqual([])
    expect(await rows(auth, 'billingCustomer')).toEqual([])
  })

  it('refuses a body over 1 MiB with 413, storing nothing', async () => {
    const auth = billingAuth()
    const huge = JSON.stringify(envelope('customer.created', customer({ metadata: { blob: 'x'.repeat(1024 * 1024) } })))
    const response = await auth.handler(deliveryRequest(auth, { body: huge }))
    expect(response.status).toBe(413)
    expect(await rows(auth, 'billingEvent')).toEqual([])
  })

  it('is exempt from the origin check: a delivery carrying a cookie and a foreign origin still applies', async () => {
    const auth = billingAuth()
    const reply = await deliver(auth, { body, headers: { cookie: 'a=b', origin: 'https://evil.example' } })
    expect(reply.status).toBe(200)
  })

  it('is exempt from rate limits: 40 deliveries from one address in a window of 5 all apply', async () => {
    const auth = billingAuth({}, { rateLimit: { enabled: true, window: 60, max: 5 } })
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        deliver(auth, { body: JSON.stringify(envelope('customer.created', customer({ id: `cus-${index}` }))), headers: { 'x-forwarded-for': '203.0.113.9' } }),
      ),
    )
    expect(replies.map((reply) => reply.status)).toEqual(Array.from({ length: 40 }, () => 200))
    // The same address is limited on an ordinary route.
    const signIns = await Promise.all(
      Array.from({ length: 8 }, () =>
        auth.handler(new Request('http://localhost:3000/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' }, body: '{"email":"a@b.c","password":"wrong-password"}' })),
      ),
    )
    expect(signIns.some((response) => response.status === 429)).toBe(true)
  })

  it('answers 405 to GET', async () => {
    const auth = billingAuth()
    expect((await auth.handler(new Request(WEBHOOK_URL))).status).toBe(405)
  })
})

describe('the event log', () => {
  it('logs an applied event with its raw body, type and timestamp', async () => {
    const auth = billingAuth()
    const id = messageId()
    await deliver(auth, { body, id })
    expect(await rows(auth, 'billingEvent')).toMatchObject([
      { webhookId: id, type: 'customer.created', status: 'applied', error: null, payload: body, timestamp: new Date('2026-01-01T09:00:30Z'), attempts: 1 },
    ])
  })

  it('acknowledges an unknown but signed type with 202, logs it as ignored and keeps the payload', async () => {
    const auth = billingAuth()
    const unknown = JSON.stringify({ type: 'member.created', timestamp: '2026-01-01T09:00:30Z', data: { id: 'm1' } })
    const reply = await deliver(auth, { body: unknown })
    expect(reply).toEqual({ status: 202, body: { received: true, status: 'ignored', message: 'Unknown event type: member.created' } })
    expect(await rows(auth, 'billingEvent')).toMatchObject([{ type: 'member.created', status: 'ignored', error: 'Unknown event type: member.created', payload: unknown }])
  })

  it('an unknown type is ignored whatever the rest of its envelope holds: no timestamp, or not a date', async () => {
    const auth = billingAuth()
    for (const unknown of [{ type: 'member.created', data: { id: 'm1' } }, { type: 'member.created', timestamp: 'yesterday', data: {} }]) {
      const reply = await deliver(auth, { body: JSON.stringify(unknown) })
      expect(reply).toEqual({ status: 202, body: { received: true, status: 'ignored', message: 'Unknown event type: member.created' } })
    }
    expect(await rows(auth, 'billingEvent')).toMatchObject([
      { type: 'member.created', status: 'ignored', timestamp: null },
      { type: 'member.created', status: 'ignored', timestamp: null },
    ])
  })

  it('acknowledges a payload that fails its schema with 202, logs it as failed with the issues, and applies nothing', async () => {
    const auth = billingAuth()
    const broken = JSON.stringify(envelope('subscription.updated', { ...subscription(), amount: 'twenty' }))
    const reply = await deliver(auth, { body: broken })
    expect(reply).toEqual({ status: 202, body: { received: true, status: 'failed', message: 'Failed to parse event' } })
    const [event] = await rows(auth, 'billingEvent')
    expect(event).toMatchObject({ type: 'subscription.updated', status: 'failed', error: 'Failed to parse event', payload: broken })
    expect(event?.issues).toEqual([{ path: 'data.amount', message: 'Invalid input: expected number, received string' }])
    expect(await rows(auth, 'billingSubscription')).toEqual([])
  })

  it('logs a signed body that is not JSON as failed', async () => {
    const auth = billingAuth()
    const reply = await deliver(auth, { body: '{"type": "order.paid", ' })
    expect(reply).toMatchObject({ status: 202, body: { status: 'failed', message: 'Failed to parse event' } })
    expect(await rows(auth, 'billingEvent')).toMatchObject([{ type: null, status: 'failed', payload: '{"type": "order.paid", ' }])
  })

  it('answers a redelivery 200 duplicate and applies it once', async () => {
    const calls: string[] = []
    const auth = billingAuth({ webhooks: { onCustomerCreated: (event) => void calls.push(event.data.id) } })
    const id = messageId()
    expect((await deliver(auth, { body, id })).body.status).toBe('applied')
    auth.clock.advance(60_000)
    expect(await deliver(auth, { body, id, scheme: 'secret-bytes' })).toEqual({ status: 200, body: { received: true, status: 'duplicate' } })
    expect(await rows(auth, 'billingEvent')).toHaveLength(1)
    expect(calls).toEqual([CUSTOMER_ID])
  })

  it('twenty concurrent copies of one delivery: one applied, nineteen duplicates, handlers once', async () => {
    const calls: string[] = []
    const auth = billingAuth({ webhooks: { onOrderPaid: (event) => void calls.push(event.data.id) } })
    const paid = JSON.stringify(everyEvent()['order.paid'])
    const id = messageId()
    const replies = await Promise.all(Array.from({ length: 20 }, () => deliver(auth, { body: paid, id })))
    expect(replies.filter((reply) => reply.body.status === 'applied')).toHaveLength(1)
    expect(replies.filter((reply) => reply.status === 200 && reply.body.status === 'duplicate')).toHaveLength(19)
    expect(await rows(auth, 'billingEvent')).toHaveLength(1)
    expect(await rows(auth, 'billingOrder')).toMatchObject([{ status: 'paid', paid: true }])
    expect(calls).toEqual([order().id])
  })
})

describe('a failure to apply', () => {
  it('rolls the whole event back, logs it as failed without telling the platform the detail, and a replay applies it', async () => {
    let broken = true
    const auth = billingAuth(
      {},
      {
        databaseHooks: {
          billingOrder: {
            create: {
              before: () => {
                if (broken) throw new Error('disk quota exceeded on /var/lib/db')
              },
            },
          },
        },
      },
    )
    const reply = await deliver(auth, everyEvent()['order.paid'] as Record<string, unknown>)
    expect(reply).toEqual({ status: 202, body: { received: true, status: 'failed', message: 'Failed to apply event' } })
    // Nothing of the event stayed: not the customer or subscription it also carried.
    for (const model of ['billingCustomer', 'billingSubscription', 'billingOrder']) expect(await rows(auth, model)).toEqual([])
    expect(await rows(auth, 'billingEvent')).toMatchObject([
      { type: 'order.paid', status: 'failed', error: 'Failed to apply event: Error: disk quota exceeded on /var/lib/db' },
    ])

    broken = false
    const { events } = await auth.api.replayBillingEvents({ body: {} })
    expect(events).toMatchObject([{ type: 'order.paid', status: 'applied' }])
    expect(await rows(auth, 'billingOrder')).toMatchObject([{ status: 'paid' }])
    expect(await rows(auth, 'billingCustomer')).toHaveLength(1)
  })
})

describe('a temporary database failure', () => {
  const paid = JSON.stringify(everyEvent()['order.paid'])

  it('a deadlock is run again: the event applies once, answered 200', async () => {
    const database = flakyDatabase()
    const calls: string[] = []
    const auth = billingAuth({ webhooks: { onOrderPaid: (event) => void calls.push(event.data.id) } }, { database: database.factory })
    database.failNext('billingOrder', 'DEADLOCK', 2)
    expect(await deliver(auth, { body: paid })).toEqual({ status: 200, body: { received: true, status: 'applied' } })
    expect(database.thrown).toBe(2)
    expect(await rows(auth, 'billingEvent')).toMatchObject([{ type: 'order.paid', status: 'applied', error: null, attempts: 1 }])
    expect(await rows(auth, 'billingOrder')).toMatchObject([{ status: 'paid', paid: true }])
    expect(calls).toEqual([order().id])
  })

  const cases = [
    ['a deadlock that outlasts the retries', 'DEADLOCK', 5],
    ['a lock wait timeout or a dropped connection (not retried here)', 'TRANSIENT', 1],
  ] as const
  for (const [name, code, thrown] of cases) {
    it(`${name}: 503 with nothing stored, and the redelivery applies the event once`, async () => {
      const database = flakyDatabase()
      const calls: string[] = []
      const auth = billingAuth({ webhooks: { onOrderPaid: (event) => void calls.push(event.data.id) } }, { database: database.factory })
      database.failNext('billingOrder', code, thrown)
      const id = messageId()
      expect(await deliver(auth, { body: paid, id })).toEqual({
        status: 503,
        body: { code: 'WEBHOOK_TEMPORARILY_UNAVAILABLE', message: 'The event could not be processed now; deliver it again' },
      })
      expect(database.thrown).toBe(thrown)
      for (const model of ['billingEvent', 'billingCustomer', 'billingSubscription', 'billingOrder']) expect(await rows(auth, model)).toEqual([])
      expect(calls).toEqual([])

      auth.clock.advance(30_000)
      expect(await deliver(auth, { body: paid, id })).toEqual({ status: 200, body: { received: true, status: 'applied' } })
      expect(await rows(auth, 'billingEvent')).toMatchObject([{ webhookId: id, status: 'applied', attempts: 1 }])
      expect(await rows(auth, 'billingOrder')).toMatchObject([{ status: 'paid' }])
      expect(calls).toEqual([order().id])
    })
  }
})

describe('handlers', () => {
  it('the event is logged pending while its handlers run, and applied once they have', async () => {
    const seen: unknown[] = []
    const auth = billingAuth({
      webhooks: {
        onCustomerCreated: async (_event, ctx) => {
          const { db } = await auth.$context
          seen.push(await db.findOne({ model: 'billingEvent', where: { field: 'webhookId', value: ctx.webhookId } }))
        },
      },
    })
    expect((await deliver(auth, { body })).body.status).toBe('applied')
    expect(seen).toMatchObject([{ status: 'pending', error: null, attempts: 1 }])
    expect(await rows(auth, 'billingEvent')).toMatchObject([{ status: 'applied', error: null, attempts: 1 }])
  })


  it('run after the mirror commits, with the typed camelCase event and the raw payload', async () => {
    const seen: unknown[] = []
    const auth = billingAuth({
      webhooks: {
        onPayload: (event, ctx) => void seen.push(['payload', event.type, ctx.replayed]),
        onSubscriptionActive: async (event, ctx) => {
          const { db } = await auth.$context
          // The mirror already has the event when the handler runs.
          const stored = await db.findOne({ model: 'billingSubscription', where: { field: 'id', value: event.data.id } })
          seen.push(['active', event.data.customer.email, event.data.currentPeriodEnd, stored?.status, (ctx.payload as { type: string }).type])
        },
      },
    })
    await deliver(auth, everyEvent()['subscription.active'] as Record<string, unknown>)
    expect(seen).toEqual([
      ['payload', 'subscription.active', false],
      ['active', 'ada@example.com', new Date('2026-02-01T09:00:00Z'), 'active', 'subscription.active'],
    ])
  })

  it('a throwing handler leaves the mirror applied, logs the event as failed, and a replay runs it again', async () => {
    let broken = true
    const calls: string[] = []
    const auth = billingAuth({
      webhooks: {
        onBenefitGrantCycled: (event) => {
          calls.push(event.data.id)
          if (broken) throw new TypeError('mailer is down')
        },
      },
    })
    const reply = await deliver(auth, everyEvent()['benefit_grant.cycled'] as Record<string, unknown>)
    // The platform is told a handler failed, not what it said; the log row has the detail.
    expect(reply).toEqual({ status: 202, body: { received: true, status: 'failed', message: 'Handler failed' } })
    expect(await rows(auth, 'billingBenefitGrant')).toMatchObject([{ benefitType: 'meter_credit', isGranted: true }])
    const [event] = await rows(auth, 'billingEvent')
    expect(event).toMatchObject({ status: 'failed', error: 'Handler failed: TypeError: mailer is down' })

    broken = false
    const { events } = await auth.api.replayBillingEvents({ body: {} })
    expect(events).toEqual([{ id: event?.id, webhookId: event?.webhookId, type: 'benefit_grant.cycled', status: 'applied', error: null }])
    expect(await rows(auth, 'billingEvent')).toMatchObject([{ status: 'applied', error: null, attempts: 2 }])
    expect(await rows(auth, 'billingBenefitGrant')).toHaveLength(1)
    expect(calls).toHaveLength(2)
  })
})
