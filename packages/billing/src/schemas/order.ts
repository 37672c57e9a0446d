/**
 * @module
 * Orders and refunds, with the order status, billing reason, refund status
 * and reasons. An order may embed a snapshot of its
 * subscription, which can be older than one already received.
 */
import { z } from 'zod'
import { address, amount, customFieldData, datetime, entity, metadata, openEnum, type Address, type CustomFieldData, type Metadata, type Open } from './common.js'
import { customerSchema, type Customer } from './customer.js'
import { discountSchema, productSummarySchema, type Discount, type ProductSummary } from './product.js'
import { orderSubscriptionSchema, type OrderSubscription } from './subscription.js'

export type OrderStatus = Open<'pending' | 'paid' | 'refunded' | 'partially_refunded'>
export type BillingReason = Open<'purchase' | 'subscription_create' | 'subscription_cycle' | 'subscription_update'>

export interface OrderItem {
  [field: string]: unknown
  id: string
  label: string
  amount: number
  taxAmount: number
  proration: boolean
  productPriceId: string | null
}

export interface Order {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  status: OrderStatus
  paid: boolean
  subtotalAmount: number
  discountAmount: number
  netAmount: number
  amount?: number
  taxAmount: number
  totalAmount: number
  refundedAmount: number
  refundedTaxAmount: number
  currency: string
  billingReason: BillingReason
  billingName: string | null
  billingAddress: Address | null
  isInvoiceGenerated: boolean
  customerId: string
  productId: string | null
  discountId: string | null
  subscriptionId: string | null
  checkoutId: string | null
  metadata: Metadata
  customFieldData?: CustomFieldData
  customer: Customer
  userId?: string
  product: ProductSummary | null
  discount: Discount | null
  /** The subscription as it was when the order was made: it may be older than one already received. */
  subscription: OrderSubscription | null
  items: OrderItem[]
}

export type RefundStatus = Open<'pending' | 'succeeded' | 'failed' | 'canceled'>
export type RefundReason = Open<'duplicate' | 'fraudulent' | 'customer_request' | 'service_disruption' | 'satisfaction_guarantee' | 'other'>

export interface Refund {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  metadata: Metadata
  status: RefundStatus
  reason: RefundReason
  amount: number
  taxAmount: number
  currency: string
  organizationId: string
  orderId: string
  subscriptionId: string | null
  customerId: string
  revokeBenefits: boolean
}

export const orderStatus: z.ZodType<OrderStatus> = openEnum(['pending', 'paid', 'refunded', 'partially_refunded'])
export const billingReason: z.ZodType<BillingReason> = openEnum(['purchase', 'subscription_create', 'subscription_cycle', 'subscription_update'])

export const orderItemSchema: z.ZodType<OrderItem> = entity({
  id: z.string(),
  label: z.string(),
  amount,
  tax_amount: amount,
  proration: z.boolean(),
  product_price_id: z.string().nullable(),
})

/**
 * @example
 * const order = orderSchema.parse(wire.data)
 * order.billingReason === 'subscription_cycle' && order.paid
 */
export const orderSchema: z.ZodType<Order> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  status: orderStatus,
  paid: z.boolean(),
  subtotal_amount: amount,
  discount_amount: amount,
  net_amount: amount,
  // Older payloads carry `amount`; the platform now sends the subtotal and total.
  amount: amount.optional(),
  tax_amount: amount,
  total_amount: amount,
  refunded_amount: amount,
  refunded_tax_amount: amount,
  currency: z.string(),
  billing_reason: billingReason,
  billing_name: z.string().nullable(),
  billing_address: address.nullable(),
  is_invoice_generated: z.boolean(),
  customer_id: z.string(),
  product_id: z.string().nullable(),
  discount_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
  checkout_id: z.string().nullable(),
  metadata,
  custom_field_data: customFieldData.optional(),
  customer: customerSchema,
  user_id: z.string().optional(),
  product: productSummarySchema.nullable(),
  discount: discountSchema.nullable(),
  subscription: orderSubscriptionSchema.nullable(),
  items: z.array(orderItemSchema),
})

export const refundStatus: z.ZodType<RefundStatus> = openEnum(['pending', 'succeeded', 'failed', 'canceled'])
export const refundReason: z.ZodType<RefundReason> = openEnum([
  'duplicate',
  'fraudulent',
  'customer_request',
  'service_disruption',
  'satisfaction_guarantee',
  'other',
])

export const refundSchema: z.ZodType<Refund> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  metadata,
  status: refundStatus,
  reason: refundReason,
  amount,
  tax_amount: amount,
  currency: z.string(),
  organization_id: z.string(),
  order_id: z.string(),
  subscription_id: z.string().nullable(),
  customer_id: z.string(),
  revoke_benefits: z.boolean(),
})
