/**
 * @module
 * GET /customer/subscriptions/list, /customer/orders/list and
 * /customer/benefits/list: the signed-in user's (or a readable
 * organization's, through `referenceId`) subscriptions, orders and benefit
 * grants from the mirror, newest first, `{ items, total }`. Pages: `limit`
 * 1–100 (default 10), `offset` from 0. The three routes differ only in what
 * they list, so they are made by one function.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedBillingOptions } from '../options.js'
import { listFor, type ListItem } from '../read/state.js'
import { billingOwner } from './billing-owner.js'

export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 100

const query = z.lazy(() =>
  z.object({
    referenceId: z.string().min(1).optional(),
    limit: z.coerce.number<number>().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    offset: z.coerce.number<number>().int().min(0).default(0),
  }),
)

/**
 * @example
 * customerListRoute(options, 'orders') // GET /customer/orders/list
 */
export function customerListRoute<K extends keyof ListItem>(options: ResolvedBillingOptions, kind: K) {
  return defineEndpoint({
    method: 'GET',
    path: `/customer/${kind}/list`,
    query,
    use: [sessionMiddleware],
    handler: async ({ query, db, auth, session }) => {
      const customer = await billingOwner({ db, auth }, options, { userId: session.user.id, referenceId: query.referenceId })
      return listFor(db, kind, customer?.id ?? null, { limit: query.limit, offset: query.offset })
    },
  })
}
