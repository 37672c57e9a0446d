/**
 * @module
 * Which customer a user or an organization is. A customer belongs to
 * whoever its `external_id` names: the user id, or the organization id for
 * organization billing. With `linkCustomersByEmail`, a customer without an
 * external id also belongs to the user with the same email, but only while
 * the address is verified on both sides, checked at read time: the user's
 * (against the user row: anyone can sign up with someone else's address)
 * and the customer's (`email_verified` from the platform: anyone can type
 * someone else's address into a hosted checkout, and that customer's
 * subscriptions would then pass for the victim's; docs/billing.md#security).
 * Deleted customers belong to no one.
 */
import type { Row, Store } from '@gatehouse/core'
import { fromRow, type BillingCustomer } from './shapes.js'

const newestFirst = { field: 'createdAt', direction: 'desc' } as const

/**
 * The user's customer: the one whose external id is the user id, else (when
 * enabled) the newest one linked by an email both the user and the platform verified.
 *
 * @example
 * const customer = await customerForUser(db, user.id, { linkByEmail: false })
 */
export async function customerForUser(db: Store, userId: string, options: { readonly linkByEmail: boolean }): Promise<BillingCustomer | null> {
  const own = await customerForReference(db, userId)
  if (own || !options.linkByEmail) return own
  const user = await db.findOne<Row>({ model: 'user', where: { field: 'id', value: userId } })
  if (!user || user.emailVerified !== true || typeof user.email !== 'string') return null
  const [linked] = await db.findMany<Row>({
    model: 'billingCustomer',
    where: [
      { field: 'externalId', value: null },
      { field: 'email', value: user.email, insensitive: true },
      { field: 'emailVerified', value: true },
      { field: 'deletedAt', value: null },
    ],
    sortBy: newestFirst,
    limit: 1,
  })
  return linked ? fromRow<BillingCustomer>(linked) : null
}

/**
 * The customer whose external id is `referenceId` (a user or an organization id).
 *
 * @example
 * const customer = await customerForReference(db, organizationId)
 */
export async function customerForReference(db: Store, referenceId: string): Promise<BillingCustomer | null> {
  const [row] = await db.findMany<Row>({
    model: 'billingCustomer',
    where: [
      { field: 'externalId', value: referenceId },
      { field: 'deletedAt', value: null },
    ],
    sortBy: newestFirst,
    limit: 1,
  })
  return row ? fromRow<BillingCustomer>(row) : null
}
