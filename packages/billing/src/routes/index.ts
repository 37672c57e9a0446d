/**
 * @module
 * The plugin's endpoints by `api` name.
 */
import type { ResolvedBillingOptions } from '../options.js'
import type { OutboundRuntime } from '../outbound/runtime.js'
import { checkoutRoute } from './checkout.js'
import { customerPortalRoute } from './customer-portal.js'
import { syncCustomersCall } from './sync-customers.js'
import { usageIngestRoute } from './usage-ingest.js'
import { customerListRoute } from './customer-lists.js'
import { customerStateRoute } from './customer-state.js'
import { replayEventsCall } from './replay-events.js'
import { getCustomerStateCall, hasActiveSubscriptionCall, hasBenefitCall } from './server-calls.js'
import { webhookRoute } from './webhook.js'

export function billingEndpoints(options: ResolvedBillingOptions, outbound: OutboundRuntime) {
  return {
    polarWebhook: webhookRoute(options),
    customerState: customerStateRoute(options),
    listCustomerSubscriptions: customerListRoute(options, 'subscriptions'),
    listCustomerOrders: customerListRoute(options, 'orders'),
    listCustomerBenefits: customerListRoute(options, 'benefits'),
    getCustomerState: getCustomerStateCall(options),
    hasActiveSubscription: hasActiveSubscriptionCall(options),
    hasBenefit: hasBenefitCall(options),
    replayBillingEvents: replayEventsCall(options),
    checkout: checkoutRoute(options, outbound),
    customerPortal: customerPortalRoute(options, outbound),
    ingestUsage: usageIngestRoute(options.outbound, outbound),
    syncBillingCustomers: syncCustomersCall(outbound),
  } as const
}
