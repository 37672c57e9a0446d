/**
 * @module
 * The customer and the customer state (docs/billing.md#the-customer-state).
 * A customer's `external_id` is the application's id for whoever pays: a
 * user id, or an organization id for organization billing. The state lists
 * what the customer has right now: active subscriptions, granted benefits,
 * active meters.
 */
import { z } from 'zod'
import { grantPropertiesSchema } from './grant-properties.js'
import {
  address,
  amount,
  customFieldData,
  datetime,
  entity,
  metadata,
  openEnum,
  recurringInterval,
  taxId,
  type Address,
  type CustomFieldData,
  type Metadata,
  type Open,
} from './common.js'
import type { GrantProperties } from './grant-properties.js'

export interface Customer {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  metadata: Metadata
  /** The application's id for the payer: a user id, or an organization id. */
  externalId?: string | null
  email?: string | null
  emailVerified: boolean
  name: string | null
  billingAddress: Address | null
  taxId: Array<string | null> | null
  /** The seller account on the billing platform. */
  organizationId: string
  deletedAt: Date | null
  avatarUrl: string | null
}

export interface CustomerStateSubscriptionMeter {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  consumedUnits: number
  creditedUnits: number
  amount: number
  meterId: string
}

export interface CustomerStateSubscription {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  customFieldData?: CustomFieldData
  metadata: Metadata
  status: Open<'active' | 'trialing'>
  amount: number
  currency: string
  recurringInterval: Open<'month' | 'year' | 'day' | 'week'>
  currentPeriodStart: Date
  currentPeriodEnd: Date | null
  cancelAtPeriodEnd: boolean
  canceledAt: Date | null
  startedAt: Date | null
  endsAt: Date | null
  productId: string
  discountId: string | null
  meters: CustomerStateSubscriptionMeter[]
}

export type BenefitType = Open<'custom' | 'discord' | 'github_repository' | 'downloadables' | 'license_keys' | 'meter_credit'>

export interface CustomerStateBenefitGrant {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  grantedAt: Date
  benefitId: string
  benefitType: BenefitType
  benefitMetadata: Metadata
  properties: GrantProperties
}

export interface CustomerStateMeter {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  meterId: string
  consumedUnits: number
  creditedUnits: number
  balance: number
}

/** The customer state as the platform sends it. */
export interface CustomerStatePayload extends Customer {
  activeSubscriptions: CustomerStateSubscription[]
  grantedBenefits: CustomerStateBenefitGrant[]
  activeMeters: CustomerStateMeter[]
}

const customerFields = {
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  metadata,
  external_id: z.string().nullish(),
  // The platform's team customers may have no email.
  email: z.string().nullish(),
  email_verified: z.boolean(),
  name: z.string().nullable(),
  billing_address: address.nullable(),
  tax_id: taxId,
  organization_id: z.string(),
  deleted_at: datetime.nullable(),
  avatar_url: z.string().nullable(),
}

/**
 * @example
 * customerSchema.parse(wire.data).externalId // the user id the application set
 */
export const customerSchema: z.ZodType<Customer> = entity(customerFields)

/** A subscription meter inside the customer state: without the nested meter. */
export const customerStateSubscriptionMeterSchema: z.ZodType<CustomerStateSubscriptionMeter> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  consumed_units: z.number(),
  credited_units: z.number().int(),
  amount,
  meter_id: z.string(),
})

/** A subscription as the state lists it: status is always active (or trialing). */
export const customerStateSubscriptionSchema: z.ZodType<CustomerStateSubscription> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  custom_field_data: customFieldData.optional(),
  metadata,
  status: openEnum(['active', 'trialing']),
  amount,
  currency: z.string(),
  recurring_interval: recurringInterval,
  current_period_start: datetime,
  current_period_end: datetime.nullable(),
  cancel_at_period_end: z.boolean(),
  canceled_at: datetime.nullable(),
  started_at: datetime.nullable(),
  ends_at: datetime.nullable(),
  product_id: z.string(),
  discount_id: z.string().nullable(),
  meters: z.array(customerStateSubscriptionMeterSchema),
})

/** The kinds of benefit a grant can be for. */
export const benefitType: z.ZodType<BenefitType> = openEnum(['custom', 'discord', 'github_repository', 'downloadables', 'license_keys', 'meter_credit'])

export const customerStateBenefitGrantSchema: z.ZodType<CustomerStateBenefitGrant> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  granted_at: datetime,
  benefit_id: z.string(),
  benefit_type: benefitType,
  benefit_metadata: metadata,
  properties: grantPropertiesSchema,
})

export const customerStateMeterSchema: z.ZodType<CustomerStateMeter> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  meter_id: z.string(),
  consumed_units: z.number(),
  credited_units: z.number().int(),
  balance: z.number(),
})

/**
 * @example
 * customerStateSchema.parse(wire.data).activeSubscriptions.map((s) => s.productId)
 */
export const customerStateSchema: z.ZodType<CustomerStatePayload> = entity({
  ...customerFields,
  active_subscriptions: z.array(customerStateSubscriptionSchema),
  granted_benefits: z.array(customerStateBenefitGrantSchema),
  active_meters: z.array(customerStateMeterSchema),
})
