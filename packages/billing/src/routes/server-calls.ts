/**
 * @module
 * Server-side questions, callable only through `auth.api` (never routed):
 * `getCustomerState`, `hasActiveSubscription` and `hasBenefit`, for a user
 * (`userId`, linked as the reading routes link) or for an organization or
 * other payer (`referenceId`, the customer's external id). They are
 * endpoints marked `serverOnly`, like core's set-password, so they share
 * `api`'s typing, validation and errors, and no request can reach them.
 * The answers come from the local mirror: no call to the billing platform.
 */
import { defineEndpoint } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedBillingOptions } from '../options.js'
import { customerForReference, customerForUser } from '../read/customers.js'
import type { BillingCustomer } from '../read/shapes.js'
import { customerState } from '../read/state.js'

const payer = z.lazy(() => z.union([z.object({ userId: z.string().min(1) }), z.object({ referenceId: z.string().min(1) })]))

type Payer = z.output<typeof payer>

function findPayer(db: Parameters<typeof customerForUser>[0], options: ResolvedBillingOptions, who: Payer): Promise<BillingCustomer | null> {
  return 'userId' in who ? customerForUser(db, who.userId, { linkByEmail: options.linkCustomersByEmail }) : customerForReference(db, who.referenceId)
}

/**
 * @example
 * const state = await auth.api.getCustomerState({ body: { userId } }) // CustomerState | null
 */
export function getCustomerStateCall(options: ResolvedBillingOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/billing/customer-state',
    serverOnly: true,
    body: payer,
    handler: async ({ body, db }) => {
      const customer = await findPayer(db, options, body)
      return customer ? customerState(db, customer) : null
    },
  })
}

/**
 * @example
 * if (await auth.api.hasActiveSubscription({ body: { userId, productId: PRO } })) showProFeatures()
 */
export function hasActiveSubscriptionCall(options: ResolvedBillingOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/billing/has-active-subscription',
    serverOnly: true,
    body: z.lazy(() => z.intersection(payer, z.object({ productId: z.string().min(1).optional() }))),
    handler: async ({ body, db }): Promise<boolean> => {
      const customer = await findPayer(db, options, body)
      if (!customer) return false
      const found = await db.count({
        model: 'billingSubscription',
        where: [
          { field: 'customerId', value: customer.id },
          { field: 'active', value: true },
          ...(body.productId === undefined ? [] : [{ field: 'productId', value: body.productId }]),
        ],
      })
      return found > 0
    },
  })
}

/**
 * @example
 * if (await auth.api.hasBenefit({ body: { userId, benefitId: DOWNLOADS } })) serveFile()
 */
export function hasBenefitCall(options: ResolvedBillingOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/billing/has-benefit',
    serverOnly: true,
    body: z.lazy(() => z.intersection(payer, z.object({ benefitId: z.string().min(1) }))),
    handler: async ({ body, db }): Promise<boolean> => {
      const customer = await findPayer(db, options, body)
      if (!customer) return false
      const found = await db.count({
        model: 'billingBenefitGrant',
        where: [
          { field: 'customerId', value: customer.id },
          { field: 'benefitId', value: body.benefitId },
          { field: 'isGranted', value: true },
        ],
      })
      return found > 0
    },
  })
}
