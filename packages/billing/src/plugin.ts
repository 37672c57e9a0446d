/**
 * @module
 * `billing(options)`: the plugin object (docs/plugins.md). It adds the event
 * log and the mirror tables, the webhook route, the reading routes and the
 * server-only calls. See docs/billing.md.
 */
import { definePlugin } from '@gatehouse/core'
import { BillingErrors } from './errors.js'
import { resolveBillingOptions, type BillingOptions } from './options.js'
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
  return definePlugin({
    id: 'billing',
    schema: billingSchema,
    endpoints: billingEndpoints(resolved),
    errors: BillingErrors,
  })
}
