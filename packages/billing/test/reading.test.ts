/**
 * Reading the mirror: the signed-in user's routes (state and the three
 * lists), how customers link to users, organization billing through
 * `referenceId` with the organization plugin's permissions, and the
 * server-only `api` calls.
 */
import { createAccessControl, defaultStatements, organization } from '@gatehouse/organization'
import { describe, expect, it } from 'vitest'
import { accountAuth } from '../../core/test/accounts.js'
import { billing } from '../src/plugin.js'
import { customer, customerState, envelope, GRANT_ID, grant, order, PRODUCT_ID, SUBSCRIPTION_ID, subscription } from './fixtures/payloads.js'
import { authed, billingAuth, deliver, get, newUser, SECRET, type TestAuth, type TestUser } from './fixtures/harness.js'

type Json = Record<string, unknown>

/** Gives `payer` everything the fixtures describe, as the customer whose external id is `externalId`. */
async function purchase(auth: TestAuth, externalId: string | null, extra: Json = {}) {
  const linked = { external_id: externalId, ...extra }
  for (const event of [
    envelope('customer.created', customer(linked)),
    envelope('subscription.active', subscription({ status: 'active', started_at: '2026-01-01T09:00:06.000000Z', modified_at: '2026-01-01T09:00:06.000000Z' }, linked)),
    envelope('order.paid', order({ status: 'paid', paid: true, modified_at: '2026-01-01T09:00:08.000000Z' }, { customer: customer(linked) })),
    envelope('benefit_grant.created', grant({ customer: customer(linked) })),
    envelope('customer.state_changed', customerState(linked), '2026-01-01T09:01:00.000000Z'),
  ]) {
    const reply = await deliver(auth, event)
    expect(reply.body.status).toBe('applied')
  }
}

async function createOrg(auth: TestAuth, owner: TestUser, slug: string): Promise<string> {
  const response = await auth.handler(authed('/api/auth/organization/create', owner.cookie, { json: { name: slug, slug } }))
  const body = await response.json()
  if (response.status !== 200) throw new Error(JSON.stringify(body))
  return body.id as string
}

async function addMember(auth: TestAuth, organizationId: string, user: TestUser, role: string) {
  const { db } = await auth.$context
  await db.create({ model: 'member', data: { organizationId, userId: user.id, role, teamId: null } })
}

describe('GET /customer/state', () => {
  it('needs a session', async () => {
    const auth = billingAuth()
    expect(await get(auth, '/customer/state', null)).toMatchObject({ status: 401 })
  })

  it('answers null for a user the mirror has no customer for', async () => {
    const auth = billingAuth()
    const user = await newUser(auth)
    expect(await get(auth, '/customer/state', user)).toEqual({ status: 200, body: null })
  })

  it('answers the CustomerState shape for the customer whose external id is the user id', async () => {
    const auth = billingAuth()
    const user = await newUser(auth)
    await purchase(auth, user.id)
    const { status, body } = await get(auth, '/customer/state', user)
    expect(status).toBe(200)
    expect(body).toEqual({
      id: customer().id,
      createdAt: '2026-01-01T09:00:00.000Z',
      modifiedAt: null,
      metadata: { plan_source: 'pricing-page', seats: 3, beta: true },
      externalId: user.id,
      email: 'ada@example.com',
      emailVerified: false,
      name: 'Ada Lovelace',
      billingAddress: { line1: '12 Analytical Row', line2: null, postalCode: 'SW1A 1AA', city: 'London', state: null, country: 'GB' },
      taxId: ['GB123456789', 'gb_vat'],
      organizationId: customer().organization_id,
      deletedAt: null,
      avatarUrl: customer().avatar_url,
      activeSubscriptions: [
        {
          id: SUBSCRIPTION_ID,
          createdAt: '2026-01-01T09:00:00.000Z',
          modifiedAt: '2026-01-01T09:00:06.000Z',
          customFieldData: {},
          metadata: { seats: 3 },
          status: 'active',
          amount: 2000,
          currency: 'usd',
          recurringInterval: 'month',
          currentPeriodStart: '2026-01-01T09:00:00.000Z',
          currentPeriodEnd: '2026-02-01T09:00:00.000Z',
          cancelAtPeriodEnd: false,
          canceledAt: null,
          startedAt: '2026-01-01T09:00:06.000Z',
          endsAt: null,
          productId: PRODUCT_ID,
          discountId: null,
          meters: [
            {
              id: '7d9f1b3d-5f7a-4c9e-8b1d-3f5a7c9e1b70',
              createdAt: '2026-01-01T09:00:00.000Z',
              modifiedAt: null,
              consumedUnits: 12.5,
              creditedUnits: 1000,
              amount: 0,
              meterId: expect.any(String),
            },
          ],
        },
      ],
      grantedBenefits: [
        {
          id: GRANT_ID,
          createdAt: '2026-01-01T09:00:10.000Z',
          modifiedAt: null,
          grantedAt: '2026-01-01T09:00:10.000Z',
          benefitId: (grant().benefit as Json).id,
          benefitType: 'license_keys',
          benefitMetadata: { tier: 'pro' },
          properties: { licenseKeyId: '3b5d7f9b-1d3f-4b5d-9f1b-3d5f7b9d1f30', displayKey: '****-6F2A' },
        },
      ],
      activeMeters: [
        {
          id: '4e6a8c0e-2a4c-4e6a-8c0e-2a4c6e8a0c40',
          createdAt: '2026-01-01T09:00:00.000Z',
          modifiedAt: '2026-01-05T12:00:00.000Z',
          meterId: expect.any(String),
          consumedUnits: 12.5,
          creditedUnits: 1000,
          balance: 987.5,
        },
      ],
    })
  })

  it('a deleted customer belongs to no one', async () => {
    const auth = billingAuth()
    const user = await newUser(auth)
    await purchase(auth, user.id)
    await deliver(auth, envelope('customer.deleted', customer({ external_id: user.id, deleted_at: '2026-01-09T00:00:00.000000Z', modified_at: '2026-01-09T00:00:00.000000Z' })))
    expect((await get(auth, '/customer/state', user)).body).toBeNull()
  })
})

describe('linking customers to users', () => {
  it('never links by email unless enabled', async () => {
    const auth = billingAuth()
    const user = await newUser(auth, { email: 'ada@example.com', verified: true })
    await purchase(auth, null)
    expect((await get(auth, '/customer/state', user)).body).toBeNull()
  })

  it('with linkCustomersByEmail, links a customer without external id to the user with that email, only while it is verified', async () => {
    const auth = billingAuth({ linkCustomersByEmail: true })
    const user = await newUser(auth, { email: 'ADA@example.com' })
    await purchase(auth, null, { email_verified: true })
    expect((await get(auth, '/customer/state', user)).body).toBeNull()
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: user.id }, update: { emailVerified: true } })
    expect((await get(auth, '/customer/state', user)).body).toMatchObject({ id: customer().id, externalId: null })
  })

  it("with linkCustomersByEmail, a customer whose email the platform has not verified is not linked, until it is", async () => {
    // Anyone can type a verified user's address into a hosted checkout: that customer is not theirs.
    const auth = billingAuth({ linkCustomersByEmail: true })
    const user = await newUser(auth, { email: 'ada@example.com', verified: true })
    await purchase(auth, null, { email_verified: false })
    expect((await get(auth, '/customer/state', user)).body).toBeNull()
    expect((await get(auth, '/customer/subscriptions/list', user)).body).toEqual({ items: [], total: 0 })
    expect(await auth.api.hasActiveSubscription({ body: { userId: user.id } })).toBe(false)
    // The customer proves the address to the platform (its customer portal's email code): now it links.
    await deliver(auth, envelope('customer.updated', customer({ email_verified: true, modified_at: '2026-01-02T09:00:00.000000Z' })))
    expect((await get(auth, '/customer/state', user)).body).toMatchObject({ id: customer().id, externalId: null, emailVerified: true })
    expect(await auth.api.hasActiveSubscription({ body: { userId: user.id } })).toBe(true)
  })

  it('with linkCustomersByEmail, a customer whose external id names someone else is not linked by email', async () => {
    const auth = billingAuth({ linkCustomersByEmail: true })
    const user = await newUser(auth, { email: 'ada@example.com', verified: true })
    await purchase(auth, 'someone-else')
    expect((await get(auth, '/customer/state', user)).body).toBeNull()
  })
})

describe('the lists', () => {
  it('list subscriptions, orders and benefit grants of the user, paged, newest first, with the total', async () => {
    const auth = billingAuth()
    const user = await newUser(auth)
    await purchase(auth, user.id)
    for (let index = 2; index <= 4; index++) {
      const cycle = order({ id: `order-${index}`, created_at: `2026-0${index}-01T09:00:00.000000Z`, billing_reason: 'subscription_cycle', status: 'paid', paid: true }, { customer: customer({ external_id: user.id }) })
      await deliver(auth, envelope('order.paid', cycle))
    }
    const page = await get(auth, '/customer/orders/list', user, { limit: '2' })
    expect(page.status).toBe(200)
    expect(page.body.total).toBe(4)
    expect(page.body.items.map((item: Json) => item.id)).toEqual(['order-4', 'order-3'])
    expect(page.body.items[0]).toMatchObject({ billingReason: 'subscription_cycle', totalAmount: 2400, items: [{ label: 'Pro (monthly)', productPriceId: expect.any(String) }] })
    expect(page.body.items[0]).not.toHaveProperty('version')
    const next = await get(auth, '/customer/orders/list', user, { limit: '2', offset: '2' })
    expect(next.body.items.map((item: Json) => item.id)).toEqual(['order-2', order().id])

    const subscriptions = await get(auth, '/customer/subscriptions/list', user)
    expect(subscriptions.body).toMatchObject({ total: 1, items: [{ id: SUBSCRIPTION_ID, active: true, status: 'active', productId: PRODUCT_ID }] })
    const benefits = await get(auth, '/customer/benefits/list', user)
    expect(benefits.body).toMatchObject({ total: 1, items: [{ id: GRANT_ID, isGranted: true, benefitType: 'license_keys' }] })
  })

  it('are empty for a user without a customer, and refuse bad page sizes', async () => {
    const auth = billingAuth()
    const user = await newUser(auth)
    expect((await get(auth, '/customer/subscriptions/list', user)).body).toEqual({ items: [], total: 0 })
    expect(await get(auth, '/customer/orders/list', user, { limit: '0' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } })
    expect(await get(auth, '/customer/orders/list', user, { limit: '101' })).toMatchObject({ status: 400 })
    expect(await get(auth, '/customer/benefits/list', null)).toMatchObject({ status: 401 })
  })
})

describe('organization billing', () => {
  async function orgWithBilling(auth: TestAuth) {
    const owner = await newUser(auth)
    const admin = await newUser(auth)
    const member = await newUser(auth)
    const outsider = await newUser(auth)
    const organizationId = await createOrg(auth, owner, `org-${owner.id.slice(0, 6)}`)
    await addMember(auth, organizationId, admin, 'admin')
    await addMember(auth, organizationId, member, 'member')
    await purchase(auth, organizationId)
    return { owner, admin, member, outsider, organizationId }
  }

  it('owners and admins read it through referenceId; members may not; outsiders are not members', async () => {
    const auth = billingAuth()
    const { owner, admin, member, outsider, organizationId } = await orgWithBilling(auth)
    for (const reader of [owner, admin]) {
      const state = await get(auth, '/customer/state', reader, { referenceId: organizationId })
      expect(state).toMatchObject({ status: 200, body: { externalId: organizationId, activeSubscriptions: [{ id: SUBSCRIPTION_ID }] } })
      expect((await get(auth, '/customer/orders/list', reader, { referenceId: organizationId })).body.total).toBe(1)
    }
    expect(await get(auth, '/customer/state', member, { referenceId: organizationId })).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_READ_THIS_BILLING', message: 'You are not allowed to read the billing of this organization' },
    })
    expect(await get(auth, '/customer/subscriptions/list', outsider, { referenceId: organizationId })).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION', message: 'You are not a member of this organization' },
    })
    // Without referenceId each of them sees their own (empty) billing.
    expect((await get(auth, '/customer/state', owner)).body).toBeNull()
  })

  it('the permission is configurable, and run through the application roles', async () => {
    const ac = createAccessControl({ ...defaultStatements, billing: ['read'] })
    const roles = {
      owner: ac.newRole({ organization: ['update', 'delete'], member: ['create', 'update', 'delete'], invitation: ['create', 'cancel'] }),
      admin: ac.newRole({ organization: ['update'] }),
      member: ac.newRole({}),
      accountant: ac.newRole({ billing: ['read'] }),
    }
    const auth = accountAuth({
      plugins: [
        organization({ ac, roles }),
        billing({ webhooks: { secret: SECRET }, organizationBilling: { permissions: { billing: ['read'] } } }),
      ] as const,
    })
    const { owner, admin, organizationId } = await orgWithBilling(auth)
    const accountant = await newUser(auth)
    await addMember(auth, organizationId, accountant, 'accountant')
    expect((await get(auth, '/customer/state', accountant, { referenceId: organizationId })).status).toBe(200)
    expect((await get(auth, '/customer/state', admin, { referenceId: organizationId })).status).toBe(403)
    expect((await get(auth, '/customer/state', owner, { referenceId: organizationId })).status).toBe(403)
  })

  it('is refused when turned off, or without the organization plugin', async () => {
    const off = billingAuth({ organizationBilling: false })
    const user = await newUser(off)
    expect(await get(off, '/customer/state', user, { referenceId: 'org-1' })).toMatchObject({
      status: 400,
      body: { code: 'ORGANIZATION_BILLING_IS_NOT_ENABLED' },
    })
    const alone = accountAuth({ plugins: [billing({ webhooks: { secret: SECRET } })] as const })
    const other = await newUser(alone)
    expect((await get(alone, '/customer/state', other, { referenceId: 'org-1' })).status).toBe(400)
    // The user's own id as referenceId is their own billing.
    expect(await get(alone, '/customer/state', other, { referenceId: other.id })).toEqual({ status: 200, body: null })
  })
})

describe('server-side api', () => {
  it('getCustomerState, hasActiveSubscription and hasBenefit answer from the mirror, by user or by reference', async () => {
    const auth = billingAuth()
    const user = await newUser(auth)
    await purchase(auth, user.id)
    const state = await auth.api.getCustomerState({ body: { userId: user.id } })
    expect(state).toMatchObject({ id: customer().id, activeSubscriptions: [{ id: SUBSCRIPTION_ID, currentPeriodEnd: new Date('2026-02-01T09:00:00Z') }] })
    expect(await auth.api.getCustomerState({ body: { referenceId: user.id } })).toMatchObject({ id: customer().id })
    expect(await auth.api.getCustomerState({ body: { userId: 'nobody' } })).toBeNull()

    expect(await auth.api.hasActiveSubscription({ body: { userId: user.id } })).toBe(true)
    expect(await auth.api.hasActiveSubscription({ body: { userId: user.id, productId: PRODUCT_ID } })).toBe(true)
    expect(await auth.api.hasActiveSubscription({ body: { userId: user.id, productId: 'another-product' } })).toBe(false)
    expect(await auth.api.hasActiveSubscription({ body: { userId: 'nobody' } })).toBe(false)

    const benefitId = (grant().benefit as Json).id as string
    expect(await auth.api.hasBenefit({ body: { userId: user.id, benefitId } })).toBe(true)
    expect(await auth.api.hasBenefit({ body: { userId: user.id, benefitId: 'other' } })).toBe(false)

    // Revocations are seen at once.
    await deliver(auth, envelope('subscription.revoked', subscription({ status: 'canceled', ended_at: '2026-02-01T09:00:00.000000Z', modified_at: '2026-02-01T09:00:00.000000Z' }, { external_id: user.id })))
    await deliver(auth, envelope('benefit_grant.revoked', grant({ is_granted: false, is_revoked: true, revoked_at: '2026-02-01T09:00:00.000000Z', modified_at: '2026-02-01T09:00:00.000000Z', customer: customer({ external_id: user.id }) })))
    expect(await auth.api.hasActiveSubscription({ body: { userId: user.id } })).toBe(false)
    expect(await auth.api.hasBenefit({ body: { userId: user.id, benefitId } })).toBe(false)
  })

  it('are server only: no route answers them', async () => {
    const auth = billingAuth()
    for (const path of ['/billing/customer-state', '/billing/has-active-subscription', '/billing/has-benefit', '/billing/replay-events']) {
      const response = await auth.handler(new Request(`http://localhost:3000/api/auth${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
      expect(response.status).toBe(404)
    }
  })

  it('a body naming neither a user nor a reference is refused', async () => {
    const auth = billingAuth()
    await expect(auth.api.hasActiveSubscription({ body: {} as never })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
  })
})
