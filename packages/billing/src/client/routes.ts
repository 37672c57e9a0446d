/**
 * @module
 * The billing routes as the client calls them: `client.customer.state()` and
 * one call per list, named after what it lists (`client.customer.orders()`
 * for GET /customer/orders/list). All four read, so none signals a store.
 * The outbound calls: `client.checkout()`, `client.portal()` (both follow
 * the `{ url, redirect }` answer to the platform) and `client.usage.ingest()`
 * (routed only when the server lists `usage.events`; otherwise it answers 404).
 * Left out on purpose: the webhook route (the billing platform's, not a
 * browser's) and the server-only calls (`getCustomerState`,
 * `hasActiveSubscription`, `hasBenefit`, `replayBillingEvents`), which no
 * request can reach. A test compares the table with the server's endpoints.
 */
import * as z from 'zod/mini'
import type { RouteTable } from '@gatehouse/react'
import { benefitGrantShape, customerStateShape, orderShape, page, subscriptionShape } from './shapes.js'

const get = 'GET' as const
const post = 'POST' as const
// `{ url, redirect }`: the client sends the browser to `url` unless the call passed `disableRedirect`.
const redirectShape = z.object({ url: z.string(), redirect: z.boolean() })

export const billingRoutes = {
  customer: {
    // `null` when the mirror knows no customer for the caller yet: having bought nothing is not an error.
    state: { endpoint: 'customerState', method: get, path: '/customer/state', output: z.nullable(customerStateShape) },
    subscriptions: {
      endpoint: 'listCustomerSubscriptions',
      method: get,
      path: '/customer/subscriptions/list',
      output: page(subscriptionShape),
    },
    orders: { endpoint: 'listCustomerOrders', method: get, path: '/customer/orders/list', output: page(orderShape) },
    benefits: { endpoint: 'listCustomerBenefits', method: get, path: '/customer/benefits/list', output: page(benefitGrantShape) },
  },
  // Outbound (docs/billing.md#outbound-calls): each asks the billing platform for a page to send the browser to.
  checkout: { endpoint: 'checkout', method: post, path: '/checkout', output: redirectShape, followsRedirect: true },
  portal: { endpoint: 'customerPortal', method: get, path: '/customer/portal', output: redirectShape, followsRedirect: true },
  usage: {
    ingest: { endpoint: 'ingestUsage', method: post, path: '/usage/ingest', output: z.object({ ingested: z.literal(true), idempotencyKey: z.string() }) },
  },
} as const satisfies RouteTable

export type BillingRoutes = typeof billingRoutes
