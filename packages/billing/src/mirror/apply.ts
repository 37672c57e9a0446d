/**
 * @module
 * Applies one parsed event to the mirror, inside the receiver's transaction.
 * Entities are written in one fixed order (customer, subscription, order,
 * grant, meters), the customer's row locked first, so two transactions
 * touching the same rows take their locks in the same order and cannot
 * deadlock. Events about entities the
 * mirror does not keep (benefits, checkouts, products, refunds, the seller
 * organization) change nothing here; they are logged and handed to the
 * handlers.
 */
import type { Row, Store } from '@gatehouse/core'
import type { Customer } from '../schemas/customer.js'
import type { BillingEvent } from '../schemas/events.js'
import { replaceCustomerState, settleAgainstState } from './customer-state.js'
import { customerRow, fullSubscriptionRow, grantRow, orderRow, subscriptionRow } from './rows.js'
import { entityVersion, latest, upsertVersioned } from './versioned.js'

/**
 * @example
 * await db.transaction((tx) => applyEvent(tx, event))
 */
export async function applyEvent(tx: Store, event: BillingEvent): Promise<void> {
  switch (event.type) {
    case 'customer.created':
    case 'customer.updated':
    case 'customer.deleted':
      await writeCustomer(tx, event.data)
      return
    case 'customer.state_changed':
      await writeCustomer(tx, event.data)
      await replaceCustomerState(tx, event.data, event.timestamp)
      return
    case 'subscription.created':
    case 'subscription.active':
    case 'subscription.updated':
    case 'subscription.canceled':
    case 'subscription.uncanceled':
    case 'subscription.revoked':
      await writeCustomer(tx, event.data.customer)
      await writeSubscription(tx, event.data.id, event.data.customerId, entityVersion(event.data), fullSubscriptionRow(event.data))
      return
    case 'order.created':
    case 'order.paid':
    case 'order.updated':
    case 'order.refunded': {
      const order = event.data
      await writeCustomer(tx, order.customer)
      // The order's snapshot of its subscription may be older than one already stored: the version decides.
      const snapshot = order.subscription
      if (snapshot) await writeSubscription(tx, snapshot.id, snapshot.customerId, entityVersion(snapshot), subscriptionRow(snapshot))
      await upsertVersioned(tx, 'billingOrder', order.id, entityVersion(order), orderRow(order))
      return
    }
    case 'benefit_grant.created':
    case 'benefit_grant.cycled':
    case 'benefit_grant.revoked':
    case 'benefit_grant.updated': {
      const grant = event.data
      await writeCustomer(tx, grant.customer)
      const version = entityVersion(grant)
      const outcome = await upsertVersioned(tx, 'billingBenefitGrant', grant.id, version, grantRow(grant))
      if (outcome === 'created') await settleAgainstState(tx, 'billingBenefitGrant', 'isGranted', grant.id, grant.customerId, version)
      return
    }
    case 'benefit.created':
    case 'benefit.updated':
    case 'checkout.created':
    case 'checkout.updated':
    case 'organization.updated':
    case 'product.created':
    case 'product.updated':
    case 'refund.created':
    case 'refund.updated':
      return
  }
}

/**
 * Writes the customer and leaves its row locked for the rest of the
 * transaction: an update or insert locks it already; a skipped (stale) write
 * locks it explicitly. Every transaction touching a customer's rows thus
 * takes the customer's lock first, so a customer state and an event about
 * one of its subscriptions are applied one after the other, never
 * interleaved (and never deadlocked) on PostgreSQL and MariaDB.
 */
async function writeCustomer(tx: Store, customer: Customer): Promise<void> {
  const outcome = await upsertVersioned(tx, 'billingCustomer', customer.id, latest(entityVersion(customer), customer.deletedAt), customerRow(customer))
  if (outcome === 'stale') await tx.lock({ model: 'billingCustomer', where: { field: 'id', value: customer.id } })
}


async function writeSubscription(tx: Store, id: string, customerId: string, version: number, row: Row): Promise<void> {
  const outcome = await upsertVersioned(tx, 'billingSubscription', id, version, row)
  if (outcome === 'created') await settleAgainstState(tx, 'billingSubscription', 'active', id, customerId, version)
}
