/**
 * @module
 * `auth.api.syncBillingCustomers` (server only, docs/billing.md#customers):
 * pushes pending customer syncs to the platform now — the due ones by
 * default, every pending one with `ignoreBackoff` — and answers what became
 * of each. Meant for a cron or a deploy step; sign-ups and outbound calls
 * push due rows too.
 */
import { defineEndpoint } from '@gatehouse/core'
import { z } from 'zod'
import { syncDueCustomers } from '../outbound/customer-sync.js'
import type { OutboundRuntime } from '../outbound/runtime.js'

const body = z.lazy(() =>
  z.object({
    limit: z.number().int().min(1).max(1000).default(100),
    referenceId: z.string().min(1).optional(),
    ignoreBackoff: z.boolean().default(false),
  }),
)

/**
 * @example
 * const { customers } = await auth.api.syncBillingCustomers({ body: {} })
 */
export function syncCustomersCall(outbound: OutboundRuntime) {
  return defineEndpoint({
    method: 'POST',
    path: '/billing/sync-customers',
    serverOnly: true,
    body,
    handler: async ({ body, auth }) => {
      const customers = await syncDueCustomers(outbound.syncContext(auth), {
        limit: body.limit,
        ignoreBackoff: body.ignoreBackoff,
        ...(body.referenceId === undefined ? {} : { referenceId: body.referenceId }),
      })
      return { customers }
    },
  })
}
