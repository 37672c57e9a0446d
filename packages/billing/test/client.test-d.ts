/**
 * Type tests of the client half, checked by `pnpm typecheck`: billing calls
 * and the `useCustomerState()` hook are typed from the server's endpoints,
 * with a client made from the plugin list or from the server's type.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { organization } from '@gatehouse/organization'
import { organizationClient } from '@gatehouse/organization/client'
import { createAuthClient } from '@gatehouse/react'
import { describe, expectTypeOf, it } from 'vitest'
import { billingClient } from '../src/client.js'
import { billing } from '../src/plugin.js'

const server = createAuth({
  baseURL: 'http://localhost:3000',
  database: memoryAdapter(),
  plugins: [organization(), billing({ webhooks: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } })],
})

const fromServer = createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [organizationClient(), billingClient()] })
const fromPlugins = createAuthClient({ baseURL: 'http://localhost:3000', plugins: [billingClient()] })

/** What the server's own call answers, the type the client's data must have. */
type ServerState = Awaited<ReturnType<typeof server.api.customerState>>

describe('billing routes', () => {
  it('state answers the CustomerState or null, with Dates, as auth.api does', async () => {
    const { data, error } = await fromServer.customer.state()
    if (error) return
    expectTypeOf(data).toEqualTypeOf<ServerState>()
    if (!data) return
    expectTypeOf(data.createdAt).toEqualTypeOf<Date>()
    expectTypeOf(data.externalId).toEqualTypeOf<string | null>()
    const subscription = data.activeSubscriptions[0]
    if (!subscription) return
    expectTypeOf(subscription.currentPeriodEnd).toEqualTypeOf<Date | null>()
    expectTypeOf(subscription.meters[0]!.createdAt).toEqualTypeOf<Date>()
    expectTypeOf(data.grantedBenefits[0]!.grantedAt).toEqualTypeOf<Date | null>()
  })

  it('takes an optional referenceId; the lists take limit and offset', async () => {
    expectTypeOf(fromServer.customer.state).toBeCallableWith()
    expectTypeOf(fromServer.customer.state).toBeCallableWith({ referenceId: 'org_1' })
    expectTypeOf(fromServer.customer.orders).toBeCallableWith({ referenceId: 'org_1', limit: 20, offset: 40 })
    // @ts-expect-error referenceId is an id, not a number
    void fromServer.customer.state({ referenceId: 42 })
    // @ts-expect-error the state takes no page
    void fromServer.customer.state({ limit: 10 })
    // The page is numbers, though it travels as query text (the server coerces it).
    type Page = { referenceId?: string | undefined; limit?: number | undefined; offset?: number | undefined }
    expectTypeOf(fromServer.customer.orders).parameter(0).toEqualTypeOf<Page | undefined>()
    expectTypeOf(fromPlugins.customer.subscriptions).parameter(0).toEqualTypeOf<Page | undefined>()
    expectTypeOf<NonNullable<Parameters<typeof server.api.listCustomerBenefits>[0]>['query']>().toEqualTypeOf<Page | undefined>()
    // @ts-expect-error a page size is a number
    void fromServer.customer.orders({ limit: 'twenty' })
    // @ts-expect-error on the server too
    void server.api.listCustomerOrders({ query: { offset: '40' }, headers: new Headers() })
    const { data, error } = await fromServer.customer.orders({ limit: 20 })
    if (error) return
    expectTypeOf(data.total).toEqualTypeOf<number>()
    expectTypeOf(data.items[0]!.createdAt).toEqualTypeOf<Date>()
    expectTypeOf(data.items[0]!.items[0]!.amount).toEqualTypeOf<number>()
    const subscriptions = await fromPlugins.customer.subscriptions()
    if (!subscriptions.error) expectTypeOf(subscriptions.data.items[0]!.endedAt).toEqualTypeOf<Date | null>()
    const benefits = await fromPlugins.customer.benefits({ offset: 10 })
    if (!benefits.error) expectTypeOf(benefits.data.items[0]!.revokedAt).toEqualTypeOf<Date | null>()
  })

  it('has no server-only call and no webhook route', () => {
    // @ts-expect-error has-benefit is server only
    void fromServer.customer.hasBenefit
    // @ts-expect-error get-customer-state is server only: the client reads the state through customer.state
    void fromServer.getCustomerState
    // @ts-expect-error the webhook route is the billing platform's
    void fromServer.polarWebhook
  })

  it('errors narrow to the billing catalogue too', async () => {
    const { error } = await fromServer.customer.state({ referenceId: 'org_1' })
    if (!error) return
    switch (error.code) {
      case 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION':
      case 'YOU_ARE_NOT_ALLOWED_TO_READ_THIS_BILLING':
      case 'ORGANIZATION_BILLING_IS_NOT_ENABLED':
      case 'UNAUTHORIZED':
      case 'CLIENT_VALIDATION_ERROR':
        break
      // @ts-expect-error not a code anywhere
      case 'NOT_A_CUSTOMER':
        break
    }
  })
})

describe('from the server type', () => {
  it('needs the client half of every server plugin, in order', () => {
    // @ts-expect-error the server has billing(): its client half is required
    createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [organizationClient()] })
    // @ts-expect-error the server has organization() too
    createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [billingClient()] })
    // @ts-expect-error in the server's order
    createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [billingClient(), organizationClient()] })
  })
})

describe('useCustomerState', () => {
  it("holds the state route's answer, or null", () => {
    type State = ReturnType<typeof fromServer.useCustomerState>
    expectTypeOf<State['data']>().toEqualTypeOf<ServerState | null>()
    expectTypeOf<NonNullable<State['data']>['activeMeters'][number]['balance']>().toEqualTypeOf<number>()
    expectTypeOf(fromPlugins.useCustomerState).toBeCallableWith({ initialData: null })
  })
})

describe('outbound calls', () => {
  it('checkout and portal answer { url, redirect }; usage.ingest its key; inputs are checked', async () => {
    const checkout = await fromServer.checkout({ slug: 'pro', metadata: { seats: 3 } })
    if (!checkout.error) expectTypeOf(checkout.data).toEqualTypeOf<{ url: string; redirect: boolean }>()
    expectTypeOf(fromServer.checkout).toBeCallableWith({ products: ['prod_1'], referenceId: 'org_1', successUrl: '/done', disableRedirect: true })
    expectTypeOf(fromServer.portal).toBeCallableWith()
    const usage = await fromServer.usage.ingest({ event: 'api_call' })
    if (!usage.error) expectTypeOf(usage.data.idempotencyKey).toEqualTypeOf<string>()
    // @ts-expect-error an event needs its name
    void fromServer.usage.ingest({ metadata: {} })
  })
})
