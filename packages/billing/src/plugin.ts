/**
 * @module
 * `billing(options)`: the plugin object (docs/plugins.md). It adds the event
 * log and the mirror tables, the webhook route, the reading routes and the
 * server-only calls; with platform access, the outbound routes (checkout,
 * customer portal, usage), the customer-sync table and the user hooks that
 * feed it (docs/billing.md#outbound-calls). See docs/billing.md.
 */
import { definePlugin } from '@gatehouse/core'
import { BillingErrors } from './errors.js'
import { resolveBillingOptions, type BillingOptions } from './options.js'
import { eventLogCleanup } from './retention.js'
import { createOutboundRuntime } from './outbound/runtime.js'
import { billingEndpoints } from './routes/index.js'
import { billingSchema } from './schema.js'

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   plugins: [
 *     billing({
 *       webhooks: {
 *         secret: process.env.POLAR_WEBHOOK_SECRET,
 *         onOrderPaid: async (event) => receipts.send(event.data.customer.email, event.data.id),
 *       },
 *     }),
 *   ],
 * })
 * await auth.api.hasActiveSubscription({ body: { userId, productId } })
 */
export function billing(options: BillingOptions) {
  const resolved = resolveBillingOptions(options)
  const outbound = createOutboundRuntime(resolved)
  const usageBudget = resolved.outbound.usageEvents ? resolved.outbound.usageRateLimit : null
  return definePlugin({
    id: 'billing',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'billingClient', from: '@gatehouse/billing/client' },
    schema: billingSchema,
    endpoints: billingEndpoints(resolved, outbound),
    errors: BillingErrors,
    databaseHooks: outbound.databaseHooks,
    // Each checkout or portal request costs a platform call that creates a session there: fewer than the default.
    rateLimit: [
      { pathMatcher: (path: string) => path === '/checkout' || path === '/customer/portal', window: 60, max: 10 },
      // Usage is limited per user (outbound/usage-budget.ts); per address, ten users' budgets (an office behind one
      // address). The rule also tells core's cleanup to keep rateLimit rows as long as this window, the per-user ones included.
      ...(usageBudget ? [{ pathMatcher: (path: string) => path === '/usage/ingest', window: usageBudget.window, max: usageBudget.max * 10 }] : []),
    ],
    init: (ctx) => outbound.init(ctx),
    cleanup: eventLogCleanup(options.eventLog),
    /** Resolves once background customer pushes started so far have finished (tests, graceful shutdown). */
    idle: () => outbound.idle(),
  })
}
