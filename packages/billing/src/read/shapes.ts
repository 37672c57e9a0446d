/**
 * @module
 * What the reading routes and the server-side `api` answer: the mirror's
 * rows in camelCase (subscriptions, orders, benefit grants), and the
 * customer state (docs/billing.md#the-customer-state) built from them. The
 * storage column `version` never leaves the server.
 */
import type { Row } from '@gatehouse/core'
import type { Address } from '../schemas/common.js'

export interface SubscriptionMeterUsage {
  readonly id: string
  readonly createdAt: Date
  readonly modifiedAt: Date | null
  readonly consumedUnits: number
  readonly creditedUnits: number
  readonly amount: number
  readonly meterId: string
}

export interface BillingCustomer {
  readonly id: string
  readonly externalId: string | null
  readonly email: string | null
  readonly emailVerified: boolean
  readonly name: string | null
  readonly metadata: Record<string, string | number | boolean>
  readonly billingAddress: Address | null
  readonly taxId: (string | null)[] | null
  /** The seller account on the billing platform. */
  readonly platformOrganizationId: string
  readonly avatarUrl: string | null
  readonly deletedAt: Date | null
  readonly createdAt: Date
  readonly modifiedAt: Date | null
}

export interface BillingSubscription {
  readonly id: string
  readonly customerId: string
  readonly productId: string
  readonly status: string
  /** In the customer's active set (status active or trialing, or listed by the latest customer state). */
  readonly active: boolean
  readonly amount: number
  readonly currency: string
  readonly recurringInterval: string
  readonly currentPeriodStart: Date
  readonly currentPeriodEnd: Date | null
  readonly cancelAtPeriodEnd: boolean
  readonly canceledAt: Date | null
  readonly startedAt: Date | null
  readonly endsAt: Date | null
  readonly endedAt: Date | null
  readonly discountId: string | null
  readonly checkoutId: string | null
  readonly customerCancellationReason: string | null
  readonly customerCancellationComment: string | null
  readonly metadata: Record<string, string | number | boolean>
  readonly customFieldData: Record<string, string | number | boolean | null> | null
  readonly meters: SubscriptionMeterUsage[]
  readonly createdAt: Date
  readonly modifiedAt: Date | null
}

export interface BillingOrderItem {
  readonly id: string
  readonly label: string
  readonly amount: number
  readonly taxAmount: number
  readonly proration: boolean
  readonly productPriceId: string | null
}

export interface BillingOrder {
  readonly id: string
  readonly customerId: string
  readonly productId: string | null
  readonly subscriptionId: string | null
  readonly status: string
  readonly paid: boolean
  readonly billingReason: string
  readonly subtotalAmount: number
  readonly discountAmount: number
  readonly netAmount: number
  readonly taxAmount: number
  readonly totalAmount: number
  readonly refundedAmount: number
  readonly refundedTaxAmount: number
  readonly currency: string
  readonly discountId: string | null
  readonly checkoutId: string | null
  readonly items: BillingOrderItem[]
  readonly metadata: Record<string, string | number | boolean>
  readonly createdAt: Date
  readonly modifiedAt: Date | null
}

export interface BillingBenefitGrant {
  readonly id: string
  readonly customerId: string
  readonly benefitId: string
  readonly benefitType: string
  readonly benefitMetadata: Record<string, string | number | boolean>
  readonly subscriptionId: string | null
  readonly orderId: string | null
  readonly isGranted: boolean
  readonly isRevoked: boolean
  readonly grantedAt: Date | null
  readonly revokedAt: Date | null
  readonly properties: Record<string, unknown>
  readonly error: { readonly message: string; readonly type: string; readonly timestamp: string } | null
  readonly createdAt: Date
  readonly modifiedAt: Date | null
}

export interface BillingCustomerMeter {
  readonly id: string
  readonly customerId: string
  readonly meterId: string
  readonly consumedUnits: number
  readonly creditedUnits: number
  readonly balance: number
  readonly active: boolean
  readonly createdAt: Date
  readonly modifiedAt: Date | null
}

/** The customer state: the customer, what it has now, and the seller as `organizationId`. */
export interface CustomerState {
  readonly id: string
  readonly createdAt: Date
  readonly modifiedAt: Date | null
  readonly metadata: Record<string, string | number | boolean>
  readonly externalId: string | null
  readonly email: string | null
  readonly emailVerified: boolean
  readonly name: string | null
  readonly billingAddress: Address | null
  readonly taxId: (string | null)[] | null
  readonly organizationId: string
  readonly deletedAt: Date | null
  readonly avatarUrl: string | null
  readonly activeSubscriptions: readonly CustomerStateSubscriptionView[]
  readonly grantedBenefits: readonly CustomerStateGrantView[]
  readonly activeMeters: readonly CustomerStateMeterView[]
}

export interface CustomerStateSubscriptionView {
  readonly id: string
  readonly createdAt: Date
  readonly modifiedAt: Date | null
  readonly customFieldData: Record<string, string | number | boolean | null> | null
  readonly metadata: Record<string, string | number | boolean>
  readonly status: string
  readonly amount: number
  readonly currency: string
  readonly recurringInterval: string
  readonly currentPeriodStart: Date
  readonly currentPeriodEnd: Date | null
  readonly cancelAtPeriodEnd: boolean
  readonly canceledAt: Date | null
  readonly startedAt: Date | null
  readonly endsAt: Date | null
  readonly productId: string
  readonly discountId: string | null
  readonly meters: readonly SubscriptionMeterUsage[]
}

export interface CustomerStateGrantView {
  readonly id: string
  readonly createdAt: Date
  readonly modifiedAt: Date | null
  readonly grantedAt: Date | null
  readonly benefitId: string
  readonly benefitType: string
  readonly benefitMetadata: Record<string, string | number | boolean>
  readonly properties: Record<string, unknown>
}

export interface CustomerStateMeterView {
  readonly id: string
  readonly createdAt: Date
  readonly modifiedAt: Date | null
  readonly meterId: string
  readonly consumedUnits: number
  readonly creditedUnits: number
  readonly balance: number
}

/**
 * A stored row as its public shape: the columns are exactly the shape's
 * fields (schema.ts) plus the ordering columns `version` and `stateVersion`,
 * which are dropped; dates inside JSON columns come back as strings and are
 * made dates again.
 *
 * @example
 * const subscription = fromRow<BillingSubscription>(row)
 */
export function fromRow<T>(row: Row): T {
  const { version: _version, stateVersion: _stateVersion, ...fields } = row
  if (Array.isArray(fields.meters)) fields.meters = fields.meters.map(reviveUsage)
  // The row's columns are the shape's fields by construction (schema.ts and mirror/rows.ts are written together).
  return fields as T
}

function reviveUsage(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  const usage = value as Record<string, unknown>
  return {
    ...usage,
    createdAt: typeof usage.createdAt === 'string' ? new Date(usage.createdAt) : usage.createdAt,
    modifiedAt: typeof usage.modifiedAt === 'string' ? new Date(usage.modifiedAt) : usage.modifiedAt,
  }
}
