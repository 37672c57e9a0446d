/**
 * @module
 * Parsed platform entities → mirror rows. Each function returns the columns
 * of one table that the given view of the entity carries; a partial view
 * (an order's subscription snapshot, a state's subscription) leaves the
 * other columns as they are on update and at their defaults on insert.
 * Dates nested inside JSON columns are stored as ISO strings.
 */
import type { Row } from '@gatehouse/core'
import type { BenefitGrant } from '../schemas/benefit.js'
import type { Customer, CustomerStateBenefitGrant, CustomerStateMeter, CustomerStateSubscription } from '../schemas/customer.js'
import type { Order } from '../schemas/order.js'
import type { OrderSubscription, Subscription } from '../schemas/subscription.js'

/**
 * Statuses in which a subscription is in its customer's active set (the customer state lists only these).
 *
 * @example
 * isActiveStatus('trialing') // true
 */
export function isActiveStatus(status: string): boolean {
  return status === 'active' || status === 'trialing'
}

/**
 * @example
 * await upsertVersioned(tx, 'billingCustomer', customer.id, version, customerRow(customer))
 */
export function customerRow(customer: Customer): Row {
  return {
    externalId: customer.externalId ?? null,
    email: customer.email ?? null,
    emailVerified: customer.emailVerified,
    name: customer.name,
    metadata: customer.metadata,
    billingAddress: customer.billingAddress,
    taxId: customer.taxId,
    platformOrganizationId: customer.organizationId,
    avatarUrl: customer.avatarUrl,
    deletedAt: customer.deletedAt,
    createdAt: customer.createdAt,
    modifiedAt: customer.modifiedAt,
  }
}

/**
 * The columns every view of a subscription has (the order's snapshot is exactly these).
 *
 * @example
 * if (order.subscription) subscriptionRow(order.subscription)
 */
export function subscriptionRow(subscription: OrderSubscription): Row {
  return {
    customerId: subscription.customerId,
    productId: subscription.productId,
    status: subscription.status,
    active: isActiveStatus(subscription.status),
    amount: subscription.amount,
    currency: subscription.currency,
    recurringInterval: subscription.recurringInterval,
    currentPeriodStart: subscription.currentPeriodStart,
    currentPeriodEnd: subscription.currentPeriodEnd,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    canceledAt: subscription.canceledAt,
    startedAt: subscription.startedAt,
    endsAt: subscription.endsAt,
    endedAt: subscription.endedAt,
    discountId: subscription.discountId,
    checkoutId: subscription.checkoutId,
    customerCancellationReason: subscription.customerCancellationReason,
    customerCancellationComment: subscription.customerCancellationComment,
    metadata: subscription.metadata,
    customFieldData: subscription.customFieldData ?? null,
    createdAt: subscription.createdAt,
    modifiedAt: subscription.modifiedAt,
  }
}

/**
 * The full subscription adds its meters, kept as the customer state lists them (without the nested meter).
 *
 * @example
 * fullSubscriptionRow(event.data).meters // [{ id, meterId, consumedUnits, ... }]
 */
export function fullSubscriptionRow(subscription: Subscription): Row {
  return {
    ...subscriptionRow(subscription),
    meters: subscription.meters.map(({ meter: _meter, ...usage }) => usage),
  }
}

/**
 * A subscription as a customer state lists it: in the active set by definition.
 *
 * @example
 * state.activeSubscriptions.map((subscription) => stateSubscriptionRow(subscription, state.id))
 */
export function stateSubscriptionRow(subscription: CustomerStateSubscription, customerId: string): Row {
  return {
    customerId,
    productId: subscription.productId,
    status: subscription.status,
    active: true,
    amount: subscription.amount,
    currency: subscription.currency,
    recurringInterval: subscription.recurringInterval,
    currentPeriodStart: subscription.currentPeriodStart,
    currentPeriodEnd: subscription.currentPeriodEnd,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    canceledAt: subscription.canceledAt,
    startedAt: subscription.startedAt,
    endsAt: subscription.endsAt,
    discountId: subscription.discountId,
    metadata: subscription.metadata,
    customFieldData: subscription.customFieldData ?? null,
    meters: subscription.meters,
    createdAt: subscription.createdAt,
    modifiedAt: subscription.modifiedAt,
  }
}

/**
 * @example
 * await upsertVersioned(tx, 'billingOrder', order.id, entityVersion(order), orderRow(order))
 */
export function orderRow(order: Order): Row {
  return {
    customerId: order.customerId,
    productId: order.productId,
    subscriptionId: order.subscriptionId,
    status: order.status,
    paid: order.paid,
    billingReason: order.billingReason,
    subtotalAmount: order.subtotalAmount,
    discountAmount: order.discountAmount,
    netAmount: order.netAmount,
    taxAmount: order.taxAmount,
    totalAmount: order.totalAmount,
    refundedAmount: order.refundedAmount,
    refundedTaxAmount: order.refundedTaxAmount,
    currency: order.currency,
    discountId: order.discountId,
    checkoutId: order.checkoutId,
    items: order.items,
    metadata: order.metadata,
    createdAt: order.createdAt,
    modifiedAt: order.modifiedAt,
  }
}

/**
 * The grant, with its benefit's type and metadata (the customer state lists grants with them).
 *
 * @example
 * grantRow(event.data).benefitType // 'license_keys'
 */
export function grantRow(grant: BenefitGrant): Row {
  return {
    customerId: grant.customerId,
    benefitId: grant.benefitId,
    benefitType: grant.benefit.type,
    benefitMetadata: grant.benefit.metadata,
    subscriptionId: grant.subscriptionId,
    orderId: grant.orderId,
    isGranted: grant.isGranted,
    isRevoked: grant.isRevoked,
    grantedAt: grant.grantedAt ?? null,
    revokedAt: grant.revokedAt ?? null,
    properties: grant.properties,
    error: grant.error ?? null,
    createdAt: grant.createdAt,
    modifiedAt: grant.modifiedAt,
  }
}

/**
 * A grant as a customer state lists it: granted by definition.
 *
 * @example
 * state.grantedBenefits.map((grant) => stateGrantRow(grant, state.id))
 */
export function stateGrantRow(grant: CustomerStateBenefitGrant, customerId: string): Row {
  return {
    customerId,
    benefitId: grant.benefitId,
    benefitType: grant.benefitType,
    benefitMetadata: grant.benefitMetadata,
    isGranted: true,
    isRevoked: false,
    grantedAt: grant.grantedAt,
    revokedAt: null,
    properties: grant.properties,
    createdAt: grant.createdAt,
    modifiedAt: grant.modifiedAt,
  }
}

/**
 * A customer meter as the customer state lists it: active by definition.
 *
 * @example
 * state.activeMeters.map((meter) => stateMeterRow(meter, state.id))
 */
export function stateMeterRow(meter: CustomerStateMeter, customerId: string): Row {
  return {
    customerId,
    meterId: meter.meterId,
    consumedUnits: meter.consumedUnits,
    creditedUnits: meter.creditedUnits,
    balance: meter.balance,
    active: true,
    createdAt: meter.createdAt,
    modifiedAt: meter.modifiedAt,
  }
}
