/**
 * @module
 * GET /customer/state: what the signed-in user (or, with `referenceId`, an
 * organization whose billing the user may read) has right now, in the
 * customer state shape (docs/billing.md#the-customer-state), from the local
 * mirror. `null` when the mirror knows no customer for them yet: having
 * bought nothing is not an error.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedBillingOptions } from '../options.js'
import { customerState } from '../read/state.js'
import { billingOwner } from './billing-owner.js'

const query = z.lazy(() => z.object({ referenceId: z.string().min(1).optional() }))

/**
 * @example
 * const state = await auth.api.customerState({ headers: request.headers, query: {} }) // CustomerState | null
 */
export function customerStateRoute(options: ResolvedBillingOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/customer/state',
    query,
    use: [sessionMiddleware],
    handler: async ({ query, db, auth, session }) => {
      const customer = await billingOwner({ db, auth }, options, { userId: session.user.id, referenceId: query.referenceId })
      return customer ? customerState(db, customer) : null
    },
  })
}
