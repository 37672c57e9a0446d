// @vitest-environment jsdom
/**
 * The client half against a real in-process server with the organization
 * and billing plugins, fed by signed webhook deliveries: the route table
 * matches the server, every route's answer parses with its Dates revived
 * and equals what `auth.api` answers, the lists page, `useCustomerState()`
 * follows sign-in and sign-out, and an answer of the wrong shape is a
 * client-side validation error.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { createAuthClient } from '@gatehouse/react'
import { organization } from '@gatehouse/organization'
import { organizationClient } from '@gatehouse/organization/client'
import { createElement, type ReactElement } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { accountAuth } from '../../core/test/accounts.js'
import { BASE } from '../../core/test/helpers.js'
import { browser, type Browser } from '../../react/test/browser.js'
import { datesLeftAsText, expectTableMatches } from '../../react/test/routes.js'
import { billingClient } from '../src/client.js'
import { billingRoutes } from '../src/client/routes.js'
import { resolveBillingOptions } from '../src/options.js'
import { createOutboundRuntime } from '../src/outbound/runtime.js'
import { billing } from '../src/plugin.js'
import { billingEndpoints } from '../src/routes/index.js'
import { billingAuth, deliver, SECRET, type BillingAuth, type TestAuth } from './fixtures/harness.js'
import { customer, customerState, envelope, GRANT_ID, grant, order, PRODUCT_ID, SUBSCRIPTION_ID, subscription } from './fixtures/payloads.js'

afterEach(cleanup)

const PASSWORD = 'correct horse battery'
let counter = 0
const email = () => `billing-client${++counter}@example.com`

function clientOf(auth: BillingAuth, tab: Browser) {
  return createAuthClient<typeof auth>({ baseURL: BASE, fetch: tab.fetch, plugins: [organizationClient(), billingClient()] })
}

type Client = ReturnType<typeof clientOf>

/** Signs a user up through the client and answers their id. */
async function signUp(client: Client, name = 'Ada'): Promise<string> {
  const { data, error } = await client.signUp.email({ name, email: email(), password: PASSWORD })
  if (error) throw new Error(error.message)
  return data.user.id
}

/** The cookies the browser holds, as a Cookie header for `auth.api` calls made on its behalf. */
const headersOf = (tab: Browser) => ({ cookie: [...tab.cookies].map(([name, value]) => `${name}=${value}`).join('; ') })

/** Signed deliveries that give the customer whose external id is `externalId` a subscription and a license key. */
async function subscribe(auth: TestAuth, externalId: string) {
  const linked = { external_id: externalId }
  for (const event of [
    envelope('subscription.active', subscription({ status: 'active', started_at: '2026-01-01T09:00:06.000000Z', modified_at: '2026-01-01T09:00:06.000000Z' }, linked)),
    envelope('benefit_grant.created', grant({ customer: customer(linked) })),
  ]) {
    expect((await deliver(auth, event)).body.status).toBe('applied')
  }
}

/**
 * Paths of date-like text in an answer that should have been a Date. Left out: what is text on the
 * server too (docs/billing.md "Client"): a custom field's value, a grant property, and the fields of
 * an order item the mirror keeps as the platform sent them without naming them.
 */
function datesNotRevived(data: unknown): string[] {
  const textOnTheServer = [/\.customFieldData\.[^.]+$/, /\.properties\.[^.]+$/, /^response\.items\.\d+\.items\.\d+\.[^.]+$/]
  return datesLeftAsText(data).filter((path) => !textOnTheServer.some((pattern) => pattern.test(path)))
}

describe('billing route table', () => {
  it('matches the server: the reading routes, paths and methods; not the webhook route, nothing server-only', () => {
    // `client.usage.ingest` is for an application that lists its usage events: without them the route is server-only.
    const resolved = resolveBillingOptions({ webhooks: { secret: SECRET }, usage: { events: { api_call: { validate: () => true } } } })
    const endpoints = billingEndpoints(resolved, createOutboundRuntime(resolved))
    expectTableMatches(billingRoutes, endpoints, { polarWebhook: "the billing platform's delivery route, not a browser's" })
    expect(Object.values(billingRoutes.customer).map((route) => route.endpoint)).toEqual([
      'customerState',
      'listCustomerSubscriptions',
      'listCustomerOrders',
      'listCustomerBenefits',
    ])
  })
})

describe('client.customer', () => {
  it('a signed-in user with no customer gets null and empty lists; nobody signed in gets 401', async () => {
    const auth = billingAuth()
    const tab = browser(auth)
    const client = clientOf(auth, tab)
    expect(await client.customer.state()).toMatchObject({ data: null, error: { status: 401, code: 'UNAUTHORIZED' } })

    await signUp(client)
    expect(await client.customer.state()).toEqual({ data: null, error: null })
    expect(await client.customer.subscriptions()).toEqual({ data: { items: [], total: 0 }, error: null })
    expect(await client.customer.orders({ limit: 5 })).toEqual({ data: { items: [], total: 0 }, error: null })
    expect(await client.customer.benefits()).toEqual({ data: { items: [], total: 0 }, error: null })
  })

  it("after signed subscription and grant webhooks, the state is the server's, with every Date revived", async () => {
    const auth = billingAuth()
    const tab = browser(auth)
    const client = clientOf(auth, tab)
    const userId = await signUp(client)
    await subscribe(auth, userId)

    const { data, error } = await client.customer.state()
    expect(error).toBeNull()
    expect(data).toMatchObject({
      id: customer().id,
      externalId: userId,
      createdAt: new Date('2026-01-01T09:00:00.000Z'),
      activeSubscriptions: [
        {
          id: SUBSCRIPTION_ID,
          productId: PRODUCT_ID,
          status: 'active',
          currentPeriodStart: new Date('2026-01-01T09:00:00.000Z'),
          currentPeriodEnd: new Date('2026-02-01T09:00:00.000Z'),
          startedAt: new Date('2026-01-01T09:00:06.000Z'),
          meters: [{ createdAt: new Date('2026-01-01T09:00:00.000Z'), modifiedAt: null, consumedUnits: 12.5 }],
        },
      ],
      grantedBenefits: [{ id: GRANT_ID, benefitType: 'license_keys', grantedAt: new Date('2026-01-01T09:00:10.000Z') }],
    })
    expect(data?.activeSubscriptions[0]?.meters[0]?.createdAt).toBeInstanceOf(Date)
    expect(datesNotRevived(data)).toEqual([])
    // The same value, Dates and all, as the server's own call gives.
    expect(data).toEqual(await auth.api.getCustomerState({ body: { userId } }))
  })

  it('every route answers the shape the client expects, equal to auth.api, after a full purchase', async () => {
    const auth = billingAuth()
    const tab = browser(auth)
    const client = clientOf(auth, tab)
    const userId = await signUp(client)
    const linked = { external_id: userId }
    await subscribe(auth, userId)
    for (const event of [
      envelope('order.paid', order({ status: 'paid', paid: true, modified_at: '2026-01-01T09:00:08.000000Z' }, { customer: customer(linked) })),
      envelope('benefit_grant.cycled', grant({ id: 'grant-credit', modified_at: '2026-02-01T09:00:10.000000Z', customer: customer(linked) }, 'meter_credit')),
      envelope('customer.state_changed', customerState(linked), '2026-01-01T09:01:00.000000Z'),
    ]) {
      expect((await deliver(auth, event)).body.status).toBe('applied')
    }
    const headers = headersOf(tab)
    const answers = {
      state: [await client.customer.state(), await auth.api.customerState({ headers, query: {} })],
      subscriptions: [await client.customer.subscriptions(), await auth.api.listCustomerSubscriptions({ headers, query: {} })],
      orders: [await client.customer.orders(), await auth.api.listCustomerOrders({ headers, query: {} })],
      benefits: [await client.customer.benefits(), await auth.api.listCustomerBenefits({ headers, query: {} })],
    } as const
    for (const [name, [{ data, error }, server]] of Object.entries(answers)) {
      expect(error, name).toBeNull()
      expect(data, name).toEqual(server)
      expect(datesNotRevived(data), name).toEqual([])
    }
    expect(answers.state[0].data?.activeMeters).toMatchObject([{ balance: 987.5, modifiedAt: new Date('2026-01-05T12:00:00.000Z') }])
    expect(answers.orders[0].data?.items).toMatchObject([{ paid: true, items: [{ label: 'Pro (monthly)' }] }])
    expect(answers.benefits[0].data?.total).toBe(2)
    expect(Object.keys(answers).sort()).toEqual(Object.keys(billingRoutes.customer).sort())
  })

  it('lists page: limit and offset go in the query string, newest first, with the total', async () => {
    const auth = billingAuth()
    const tab = browser(auth)
    const client = clientOf(auth, tab)
    const userId = await signUp(client)
    for (let index = 1; index <= 5; index++) {
      const paid = order(
        { id: `order-${index}`, created_at: `2026-0${index}-01T09:00:00.000000Z`, status: 'paid', paid: true },
        { customer: customer({ external_id: userId }) },
      )
      expect((await deliver(auth, envelope('order.paid', paid))).body.status).toBe('applied')
    }
    const first = await client.customer.orders({ limit: 2 })
    expect(first.data?.items.map((item) => item.id)).toEqual(['order-5', 'order-4'])
    expect(first.data?.total).toBe(5)
    expect(first.data?.items[0]?.createdAt).toEqual(new Date('2026-05-01T09:00:00.000Z'))
    const second = await client.customer.orders({ limit: 2, offset: 2 })
    expect(second.data?.items.map((item) => item.id)).toEqual(['order-3', 'order-2'])
    const last = await client.customer.orders({ limit: 2, offset: 4 })
    expect(last.data).toMatchObject({ items: [{ id: 'order-1' }], total: 5 })
    expect(tab.requests.filter((request) => request.path.startsWith('/api/auth/customer/orders/list')).map((request) => request.path)).toEqual([
      '/api/auth/customer/orders/list?limit=2',
      '/api/auth/customer/orders/list?limit=2&offset=2',
      '/api/auth/customer/orders/list?limit=2&offset=4',
    ])
    expect(await client.customer.orders({ limit: 101 })).toMatchObject({ data: null, error: { status: 400, code: 'VALIDATION_ERROR' } })
  })

  it("referenceId reads an organization's billing, for a member allowed to; errors keep the plugin's codes", async () => {
    const auth = billingAuth()
    const owner = clientOf(auth, browser(auth))
    const stranger = clientOf(auth, browser(auth))
    await signUp(owner, 'Owner')
    await signUp(stranger, 'Stranger')
    const { data: acme } = await owner.organization.create({ name: 'Acme', slug: 'acme' })
    const organizationId = acme?.id ?? ''
    await subscribe(auth, organizationId)

    const { data, error } = await owner.customer.state({ referenceId: organizationId })
    expect(error).toBeNull()
    expect(data).toMatchObject({ externalId: organizationId, activeSubscriptions: [{ id: SUBSCRIPTION_ID }] })
    expect(await owner.customer.state()).toEqual({ data: null, error: null })
    expect(await stranger.customer.subscriptions({ referenceId: organizationId })).toEqual({
      data: null,
      error: { status: 403, code: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION', message: 'You are not a member of this organization' },
    })
  })

  it('an answer of the wrong shape is a client-side validation error, not a silent text where a Date was promised', async () => {
    // A server whose customer state answers an older shape: a period start that is no date, a meter without createdAt.
    const auth = accountAuth({
      hooks: {
        after: [
          {
            matcher: (ctx) => ctx.path === '/customer/state',
            handler: ({ returned }) => {
              const state = JSON.parse(JSON.stringify(returned)) as { activeSubscriptions: Array<Record<string, unknown> & { meters: Array<Record<string, unknown>> }> }
              const [first] = state.activeSubscriptions
              if (!first) return
              first.currentPeriodStart = 'the first of the month'
              delete first.meters[0]?.createdAt
              return { returned: state }
            },
          },
        ],
      },
      plugins: [organization(), billing({ webhooks: { secret: SECRET } })] as const,
    })
    const client = createAuthClient<typeof auth>({ baseURL: BASE, fetch: browser(auth).fetch, plugins: [organizationClient(), billingClient()] })
    const { data: signedUp } = await client.signUp.email({ name: 'Ada', email: email(), password: PASSWORD })
    await subscribe(auth, signedUp?.user.id ?? '')

    const { data, error } = await client.customer.state()
    expect(data).toBeNull()
    expect(error).toMatchObject({ status: 200, code: 'CLIENT_VALIDATION_ERROR', message: 'Response does not match its expected shape' })
    expect(error?.issues?.map((issue) => issue.path).sort()).toEqual([
      'response.activeSubscriptions.0.currentPeriodStart',
      'response.activeSubscriptions.0.meters.0.createdAt',
    ])
    // The lists are not touched by the hook: they still parse.
    expect((await client.customer.subscriptions()).error).toBeNull()
  })
})

describe('useCustomerState', () => {
  function Plan({ client, testId }: { client: Client; testId: string }): ReactElement {
    const { data, error, isPending } = client.useCustomerState()
    const subscription = data?.activeSubscriptions[0]
    const text = isPending
      ? 'loading'
      : error
        ? `error: ${error.code}`
        : data === null
          ? 'no customer'
          : // toISOString: only a revived Date has it.
            `${subscription?.status ?? 'none'} until ${subscription?.currentPeriodEnd?.toISOString() ?? 'never'}, ${data.grantedBenefits.length} benefit(s)`
    return createElement('span', { 'data-testid': testId }, text)
  }

  const text = (testId: string) => screen.getByTestId(testId).textContent

  it('follows sign-in and sign-out, one request per change for any number of readers, none while signed out', async () => {
    const auth = billingAuth()
    const tab = browser(auth)
    const client = clientOf(auth, tab)
    render(createElement('div', null, createElement(Plan, { client, testId: 'a' }), createElement(Plan, { client, testId: 'b' })))

    // Signed out: null, and no request for it.
    await waitFor(() => expect(text('a')).toBe('no customer'))
    expect(tab.count('/get-session')).toBe(1)
    expect(tab.count('/customer/state')).toBe(0)

    const userId = await act(() => signUp(client))
    await waitFor(() => expect(tab.count('/customer/state')).toBe(1))
    expect(text('a')).toBe('no customer')

    await act(() => subscribe(auth, userId))
    // A webhook reaches the server, not the browser: the page reloads the store when it expects news (back from checkout).
    await act(() => client.$stores.customerState.refetch())
    await waitFor(() => expect(text('a')).toBe('active until 2026-02-01T09:00:00.000Z, 1 benefit(s)'))
    expect(text('b')).toBe(text('a'))
    expect(tab.count('/customer/state')).toBe(2)

    await act(() => client.signOut())
    await waitFor(() => expect(text('a')).toBe('no customer'))
    expect(text('b')).toBe('no customer')
    expect(tab.count('/customer/state')).toBe(2)
    expect(client.$stores.customerState.getSnapshot()).toMatchObject({ data: null, error: null })

    // Another user: their own (empty) billing, loaded afresh.
    await act(() => signUp(client, 'Grace'))
    await waitFor(() => expect(tab.count('/customer/state')).toBe(3))
    expect(text('a')).toBe('no customer')
  })

  it('a state seeded by <InitialState> follows the session: sign-out empties it without a request', async () => {
    const auth = billingAuth()
    const tab = browser(auth)
    const before = clientOf(auth, tab)
    await subscribe(auth, await signUp(before))
    // What the server rendered the page with.
    const session = await before.getSession()
    const state = await before.customer.state()
    if (session.error || state.error) throw new Error('the page could not be rendered')

    // The page loads: a new client, the same browser.
    const client = clientOf(auth, tab)
    render(createElement(client.InitialState, { session: session.data, customerState: state.data }, createElement(Plan, { client, testId: 'plan' })))
    expect(text('plan')).toBe('active until 2026-02-01T09:00:00.000Z, 1 benefit(s)')
    const requests = tab.count('/customer/state')

    await act(() => client.signOut())
    await waitFor(() => expect(text('plan')).toBe('no customer'))
    expect(tab.count('/customer/state')).toBe(requests)
  })

  it('a user who already has a subscription sees it on first render', async () => {
    const auth = billingAuth()
    const tab = browser(auth)
    const client = clientOf(auth, tab)
    const userId = await signUp(client)
    await subscribe(auth, userId)
    render(createElement(Plan, { client, testId: 'plan' }))
    expect(text('plan')).toBe('loading')
    await waitFor(() => expect(text('plan')).toBe('active until 2026-02-01T09:00:00.000Z, 1 benefit(s)'))
    expect(tab.count('/customer/state')).toBe(1)
  })
})
