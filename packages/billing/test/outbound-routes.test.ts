/**
 * The outbound routes against the loopback platform mock: POST /checkout
 * (products by slug or id, the user's or an organization's customer by
 * external id, the success URL through the trusted-origin rule, refusals),
 * GET /customer/portal, POST /usage/ingest (batched, each event once, with
 * its idempotency key), and the platform down — closed, answering 500,
 * never answering — as 502/503 with neither the token nor a stack in the
 * answer or the log.
 */
import { describe, expect, it } from 'vitest'
import { authed } from '../../core/test/accounts.js'
import { MOCK_TOKEN, startPlatformMock } from './platform-mock.js'
import { newUser, type TestUser } from './fixtures/harness.js'
import { logText, outboundAuth, PRO_PRODUCT, TEAM_PRODUCT, usePlatformMock, type OutboundAuth } from './fixtures/outbound.js'

const mock = usePlatformMock()

type Json = Record<string, any>

async function call(auth: OutboundAuth, method: 'GET' | 'POST', path: string, caller: TestUser | null, json?: Json) {
  const response = await auth.handler(authed(`/api/auth${path}`, caller?.cookie ?? '', { method, ...(json ? { json } : {}) }))
  const text = await response.text()
  return { status: response.status, body: JSON.parse(text), text }
}

async function createOrg(auth: OutboundAuth, owner: TestUser, slug: string): Promise<string> {
  const reply = await call(auth, 'POST', '/organization/create', owner, { name: slug, slug })
  if (reply.status !== 200) throw new Error(reply.text)
  return reply.body.id as string
}

describe('POST /checkout', () => {
  it('a slug: a checkout for the user as customer (external id, verified email), answered { url, redirect }', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const user = await newUser(auth, { verified: true })
    const reply = await call(auth, 'POST', '/checkout', user, { slug: 'pro', metadata: { plan: 'pro', seats: 3 } })
    expect(reply.status).toBe(200)
    const checkout = mock().checkouts.at(-1) as Json
    expect(reply.body).toEqual({ url: checkout.url, redirect: true })
    expect(checkout.url).toMatch(new RegExp(`^${mock().url}/checkout/polar_c_`))
    expect(checkout).toMatchObject({
      product_id: PRO_PRODUCT,
      external_customer_id: user.id,
      customer_email: user.email,
      success_url: 'http://localhost:3000/billing?paid=1',
      metadata: { plan: 'pro', seats: 3 },
    })
  })

  it("an unverified email is not sent: the customer is named by external id, and the platform's checkout asks for the address", async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const user = await newUser(auth, { email: 'someone-elses@example.com' })
    expect((await call(auth, 'POST', '/checkout', user, { slug: 'pro' })).status).toBe(200)
    expect(mock().checkouts.at(-1)).toMatchObject({ external_customer_id: user.id, customer_email: null })
    // Once verified, the next checkout carries it: read from the user row, not the session's copy.
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: user.id }, update: { emailVerified: true } })
    expect((await call(auth, 'POST', '/checkout', user, { slug: 'pro' })).status).toBe(200)
    expect(mock().checkouts.at(-1)).toMatchObject({ external_customer_id: user.id, customer_email: 'someone-elses@example.com' })
  })

  it("product ids, a relative success URL on our origin (the platform's {CHECKOUT_ID} placeholder kept), disableRedirect", async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const user = await newUser(auth)
    const reply = await call(auth, 'POST', '/checkout', user, { products: [TEAM_PRODUCT], successUrl: '/welcome?checkout={CHECKOUT_ID}', disableRedirect: true })
    expect(reply).toMatchObject({ status: 200, body: { redirect: false } })
    expect(mock().checkouts.at(-1)).toMatchObject({ product_id: TEAM_PRODUCT, success_url: 'http://localhost:3000/welcome?checkout={CHECKOUT_ID}' })
  })

  it('refuses an untrusted success URL, an unknown slug, both or neither of products and slug, and no session', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const user = await newUser(auth)
    const before = mock().checkouts.length
    expect(await call(auth, 'POST', '/checkout', user, { slug: 'pro', successUrl: 'https://evil.test/phish' })).toMatchObject({
      status: 403,
      body: { code: 'INVALID_SUCCESS_URL', message: 'Invalid successUrl' },
    })
    expect(await call(auth, 'POST', '/checkout', user, { slug: 'pro', successUrl: '//evil.test/x' })).toMatchObject({ status: 403 })
    expect(await call(auth, 'POST', '/checkout', user, { slug: 'gold' })).toMatchObject({ status: 400, body: { code: 'PRODUCT_NOT_FOUND' } })
    expect(await call(auth, 'POST', '/checkout', user, { slug: 'pro', products: [PRO_PRODUCT] })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } })
    expect(await call(auth, 'POST', '/checkout', user, {})).toMatchObject({ status: 400 })
    expect(await call(auth, 'POST', '/checkout', null, { slug: 'pro' })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
    expect(mock().checkouts.length).toBe(before)
  })

  it('authenticatedUsersOnly: false lets a visitor check out without a customer', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, checkout: { products: [{ slug: 'pro', productId: PRO_PRODUCT }], authenticatedUsersOnly: false } })
    const reply = await call(auth, 'POST', '/checkout', null, { slug: 'pro' })
    expect(reply.status).toBe(200)
    expect(mock().checkouts.at(-1)).toMatchObject({ external_customer_id: null, customer_email: null, success_url: `${mock().url}/checkout/done` })
  })

  it('for an organization: owners may, a member without the permission and a stranger may not', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const [owner, member, stranger] = [await newUser(auth), await newUser(auth), await newUser(auth)]
    const organizationId = await createOrg(auth, owner, 'acme-billing')
    const { db } = await auth.$context
    await db.create({ model: 'member', data: { organizationId, userId: member.id, role: 'member', teamId: null } })
    const before = mock().checkouts.length
    expect(await call(auth, 'POST', '/checkout', stranger, { slug: 'team', referenceId: organizationId })).toMatchObject({
      status: 403,
      body: { code: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION' },
    })
    expect(await call(auth, 'POST', '/checkout', member, { slug: 'team', referenceId: organizationId })).toMatchObject({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_MANAGE_THIS_BILLING', message: 'You are not allowed to manage the billing of this organization' },
    })
    expect(mock().checkouts.length).toBe(before)
    expect(await call(auth, 'POST', '/checkout', owner, { slug: 'team', referenceId: organizationId })).toMatchObject({ status: 200 })
    expect(mock().checkouts.at(-1)).toMatchObject({ external_customer_id: organizationId, product_id: TEAM_PRODUCT })
  })

  it('without platform access the outbound routes answer 501 and the reading routes work', async () => {
    const auth = outboundAuth(mock(), { platform: undefined, createCustomerOnSignUp: false })
    const user = await newUser(auth)
    expect(await call(auth, 'POST', '/checkout', user, { slug: 'pro' })).toMatchObject({ status: 501, body: { code: 'BILLING_PLATFORM_NOT_CONFIGURED' } })
    expect(await call(auth, 'GET', '/customer/portal', user)).toMatchObject({ status: 501 })
    expect(await call(auth, 'GET', '/customer/state', user)).toEqual({ status: 200, body: null, text: 'null' })
  })
})

describe('GET /customer/portal', () => {
  it('a portal session URL for the user\'s customer (created on sign-up); an organization needs the permission', async () => {
    const auth = outboundAuth(mock())
    const user = await newUser(auth)
    await auth.billingPlugin.idle()
    const reply = await call(auth, 'GET', '/customer/portal', user)
    expect(reply.status).toBe(200)
    const session = mock().sessions.at(-1) as Json
    expect(reply.body).toEqual({ url: session.customer_portal_url, redirect: true })
    expect(session.customer.external_id).toBe(user.id)
    const organizationId = await createOrg(auth, user, 'portal-org')
    const stranger = await newUser(auth)
    expect(await call(auth, 'GET', `/customer/portal?referenceId=${organizationId}`, stranger)).toMatchObject({ status: 403 })
    // The organization has never bought anything: the platform has no customer for it.
    expect(await call(auth, 'GET', `/customer/portal?referenceId=${organizationId}`, user)).toMatchObject({ status: 404, body: { code: 'CUSTOMER_NOT_FOUND' } })
  })

  it('a customer whose creation failed at sign-up is created before the portal session', async () => {
    const auth = outboundAuth(mock())
    mock().mode = 'error'
    const user = await newUser(auth)
    await auth.billingPlugin.idle()
    mock().mode = 'ok'
    expect(mock().customers.has(user.id)).toBe(false)
    expect(await call(auth, 'GET', '/customer/portal', user)).toMatchObject({ status: 200 })
    expect(mock().customers.get(user.id)).toMatchObject({ email: user.email })
  })
})

describe('POST /usage/ingest', () => {
  it('batches: 25 concurrent events become 3 calls of at most 10, each event once, each with its key', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const user = await newUser(auth)
    const calls = mock().ingestCalls.length
    const replies = await Promise.all(Array.from({ length: 25 }, (_, index) => call(auth, 'POST', '/usage/ingest', user, { event: 'api_call', metadata: { index } })))
    expect(replies.every((reply) => reply.status === 200 && reply.body.ingested === true)).toBe(true)
    const batches = mock().ingestCalls.slice(calls)
    expect(batches.map((batch) => batch.length).sort((a, b) => a - b)).toEqual([5, 10, 10])
    const sent = batches.flat()
    expect(new Set(sent.map((event) => event.metadata.index))).toEqual(new Set(Array.from({ length: 25 }, (_, index) => index)))
    const keys = replies.map((reply) => `${user.id}:${reply.body.idempotencyKey}`)
    expect(new Set(keys).size).toBe(25)
    expect(sent.map((event) => event.external_id).sort()).toEqual([...keys].sort())
    expect(sent.every((event) => event.name === 'api_call' && event.external_customer_id === user.id)).toBe(true)
  })

  it('an event sent again with its idempotency key counts once', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const user = await newUser(auth)
    const idempotencyKey = 'retry-key-0123456789'
    const first = await call(auth, 'POST', '/usage/ingest', user, { event: 'export', idempotencyKey })
    const again = await call(auth, 'POST', '/usage/ingest', user, { event: 'export', idempotencyKey })
    expect([first.body, again.body]).toEqual([
      { ingested: true, idempotencyKey },
      { ingested: true, idempotencyKey },
    ])
    expect([...mock().events.keys()].filter((key) => key === `${user.id}:${idempotencyKey}`)).toHaveLength(1)
  })

  it('needs a session', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    expect(await call(auth, 'POST', '/usage/ingest', null, { event: 'x' })).toMatchObject({ status: 401 })
  })
})

describe('the platform down', () => {
  function expectClean(auth: OutboundAuth, text: string) {
    expect(text).not.toContain(MOCK_TOKEN)
    expect(text).not.toMatch(/at \w+ \(|\.ts:\d+/)
    expect(logText(auth)).not.toContain(MOCK_TOKEN)
  }

  it('unreachable (the mock closed): 503 PLATFORM_UNAVAILABLE', async () => {
    const closed = await startPlatformMock()
    await closed.close()
    const auth = outboundAuth(closed, { createCustomerOnSignUp: false })
    const user = await newUser(auth)
    for (const [method, path, body] of [
      ['POST', '/checkout', { slug: 'pro' }],
      ['GET', '/customer/portal', undefined],
      ['POST', '/usage/ingest', { event: 'api_call' }],
    ] as const) {
      const reply = await call(auth, method, path, user, body)
      expect(reply).toMatchObject({ status: 503, body: { code: 'PLATFORM_UNAVAILABLE', message: 'The billing platform is unavailable; try again later' } })
      expectClean(auth, reply.text)
    }
    expect(logText(auth)).toContain('"reason":"unreachable"')
  })

  it('answering 500: 502 PLATFORM_BAD_RESPONSE; idempotent calls were retried first', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const user = await newUser(auth)
    mock().mode = 'error'
    const checkoutsBefore = mock().requests.filter((request) => request.path === '/v1/checkouts/').length
    const checkout = await call(auth, 'POST', '/checkout', user, { slug: 'pro' })
    expect(checkout).toMatchObject({ status: 502, body: { code: 'PLATFORM_BAD_RESPONSE' } })
    // Creating a checkout is not idempotent: a 500 is not retried.
    expect(mock().requests.filter((request) => request.path === '/v1/checkouts/').length - checkoutsBefore).toBe(1)
    const ingestsBefore = mock().requests.filter((request) => request.path === '/v1/events/ingest').length
    const usage = await call(auth, 'POST', '/usage/ingest', user, { event: 'api_call' })
    expect(usage).toMatchObject({ status: 502, body: { code: 'PLATFORM_BAD_RESPONSE' } })
    expect(mock().requests.filter((request) => request.path === '/v1/events/ingest').length - ingestsBefore).toBeGreaterThan(1)
    expectClean(auth, checkout.text + usage.text)
    expect(logText(auth)).toContain('"reason":"status 500"')
  })

  it('never answering: the timeout answers 503', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false })
    const user = await newUser(auth)
    mock().mode = 'hang'
    const started = performance.now()
    const reply = await call(auth, 'POST', '/checkout', user, { slug: 'pro' })
    expect(reply).toMatchObject({ status: 503, body: { code: 'PLATFORM_UNAVAILABLE' } })
    expect(performance.now() - started).toBeLessThan(5000)
    expectClean(auth, reply.text)
    expect(logText(auth)).toContain('"reason":"timeout"')
  })

  it('a wrong token: 502, and the token is not echoed', async () => {
    const auth = outboundAuth(mock(), { createCustomerOnSignUp: false, platform: { accessToken: 'polar_oat_wrong-secret-token', serverURL: mock().url, timeoutMs: 300 } })
    const user = await newUser(auth)
    const reply = await call(auth, 'POST', '/checkout', user, { slug: 'pro' })
    expect(reply).toMatchObject({ status: 502, body: { code: 'PLATFORM_BAD_RESPONSE' } })
    expect(reply.text + logText(auth)).not.toContain('polar_oat_wrong-secret-token')
  })
})
