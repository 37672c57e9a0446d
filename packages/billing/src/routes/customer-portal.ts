/**
 * @module
 * GET /customer/portal (docs/billing.md#customer-portal): a customer-portal
 * session on the billing platform for the signed-in user's customer, or an
 * organization's (`referenceId`, the same permission as a checkout), named
 * by external id. Answers `{ url, redirect: true }`; 404
 * `CUSTOMER_NOT_FOUND` when the platform has no such customer yet.
 */
import { AuthError, defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { BillingErrors } from '../errors.js'
import type { ResolvedBillingOptions } from '../options.js'
import type { OutboundRuntime } from '../outbound/runtime.js'
import { managedReference } from './billing-owner.js'

const query = z.lazy(() =>
  z.object({
    referenceId: z.string().min(1).optional(),
    // The caller navigates itself: the answer says `redirect: false`. A query string carries text.
    disableRedirect: z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]).optional(),
  }),
)

/**
 * @example
 * const { url } = await auth.api.customerPortal({ headers, query: {} })
 */
export function customerPortalRoute(options: ResolvedBillingOptions, outbound: OutboundRuntime) {
  return defineEndpoint({
    method: 'GET',
    path: '/customer/portal',
    query,
    use: [sessionMiddleware],
    handler: async ({ query, db, auth, session }) => {
      const platform = outbound.platform(auth)
      const referenceId = await managedReference({ db, auth }, options, outbound, { userId: session.user.id, referenceId: query.referenceId })
      const portal = await platform.createPortalSession({ externalCustomerId: referenceId })
      if (!portal.ok) throw new AuthError(portal.kind === 'not-found' ? BillingErrors.CUSTOMER_NOT_FOUND : BillingErrors.PLATFORM_BAD_RESPONSE)
      return { url: portal.value.customerPortalUrl, redirect: query.disableRedirect !== true }
    },
  })
}
