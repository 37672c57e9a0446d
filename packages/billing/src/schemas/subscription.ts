/**
 * @module
 * Subscriptions, the subscription snapshot inside an order, and the
 * subscription status. The lifecycle events (created, active, updated,
 * canceled, uncanceled, revoked) all carry the whole subscription.
 */
import { z } from 'zod'
import { amount, customFieldData, datetime, entity, metadata, openEnum, recurringInterval, type CustomFieldData, type Metadata, type Open } from './common.js'
import { customerSchema, type Customer } from './customer.js'
import { subscriptionMeterSchema, type SubscriptionMeter } from './meter.js'
import { discountSchema, productPriceSchema, productSchema, type Discount, type Product, type ProductPrice } from './product.js'

export type SubscriptionStatus = Open<'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid'>
export type CancellationReason = Open<
  'customer_service' | 'low_quality' | 'missing_features' | 'switched_service' | 'too_complex' | 'too_expensive' | 'unused' | 'other'
>

/** The fields every view of a subscription has (an order embeds just these). */
export interface OrderSubscription {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  amount: number
  currency: string
  recurringInterval: Open<'month' | 'year' | 'day' | 'week'>
  status: SubscriptionStatus
  currentPeriodStart: Date
  currentPeriodEnd: Date | null
  cancelAtPeriodEnd: boolean
  canceledAt: Date | null
  startedAt: Date | null
  endsAt: Date | null
  endedAt: Date | null
  customerId: string
  productId: string
  discountId: string | null
  checkoutId: string | null
  customerCancellationReason: CancellationReason | null
  customerCancellationComment: string | null
  metadata: Metadata
  customFieldData?: CustomFieldData
}

/** A subscription, with its customer, product, discount, prices and meters. */
export interface Subscription extends OrderSubscription {
  customer: Customer
  product: Product
  discount: Discount | null
  prices: ProductPrice[]
  meters: SubscriptionMeter[]
}

export const subscriptionStatus: z.ZodType<SubscriptionStatus> = openEnum(['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid'])

export const cancellationReason: z.ZodType<CancellationReason> = openEnum([
  'customer_service',
  'low_quality',
  'missing_features',
  'switched_service',
  'too_complex',
  'too_expensive',
  'unused',
  'other',
])

/** The fields every view of a subscription has: the order's embedded one is exactly these. */
const subscriptionFields = {
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  amount,
  currency: z.string(),
  recurring_interval: recurringInterval,
  status: subscriptionStatus,
  current_period_start: datetime,
  current_period_end: datetime.nullable(),
  cancel_at_period_end: z.boolean(),
  canceled_at: datetime.nullable(),
  started_at: datetime.nullable(),
  ends_at: datetime.nullable(),
  ended_at: datetime.nullable(),
  customer_id: z.string(),
  product_id: z.string(),
  discount_id: z.string().nullable(),
  checkout_id: z.string().nullable(),
  customer_cancellation_reason: cancellationReason.nullable(),
  customer_cancellation_comment: z.string().nullable(),
  metadata,
  custom_field_data: customFieldData.optional(),
}

/** The subscription inside an order: a snapshot taken when the order was made. */
export const orderSubscriptionSchema: z.ZodType<OrderSubscription> = entity(subscriptionFields)

/**
 * @example
 * const subscription = subscriptionSchema.parse(wire.data)
 * subscription.status === 'active' && subscription.customer.externalId
 */
export const subscriptionSchema: z.ZodType<Subscription> = entity({
  ...subscriptionFields,
  customer: customerSchema,
  product: productSchema,
  discount: discountSchema.nullable(),
  prices: z.array(productPriceSchema),
  meters: z.array(subscriptionMeterSchema),
})
