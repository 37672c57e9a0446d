/**
 * @module
 * The plugin's tables: the event log and the local mirror of the billing
 * platform (customers, subscriptions, orders, benefit grants, customer
 * meters). Mirror rows keep the platform's own id as their `id`, so the
 * primary key decides every race between two deliveries about one entity,
 * and a `version` (the entity's modified_at in microseconds, see mirror/versioned.ts) that
 * conditional updates compare, so an older delivery never overwrites newer
 * state. The event log's unique `webhookId` makes a redelivery a no-op in
 * the same transaction as the state change it would have made.
 *
 * Mirror tables carry no foreign keys between each other: the platform
 * delivers out of order, so a subscription may arrive before its customer.
 */
import type { SchemaExtension } from '@gatehouse/core'

const optionalString = { type: 'string', required: false } as const
const optionalDate = { type: 'date', required: false } as const
// Ordering versions: microseconds since the epoch, as the platform sent them (a Date keeps only milliseconds).
const version = { type: 'number', bigint: true } as const
const versioned = {
  createdAt: { type: 'date' },
  modifiedAt: optionalDate,
  version,
} as const

/**
 * @example
 * mergeSchemas(coreSchema, billingSchema)
 */
export const billingSchema = {
  billingEvent: {
    fields: {
      webhookId: { type: 'string', unique: true },
      type: optionalString,
      status: { type: 'string', index: true },
      error: optionalString,
      issues: { type: 'json', required: false },
      // The raw body, kept byte for byte so a replay parses exactly what was signed. A JSON string
      // value: `json` columns hold up to 1 MiB everywhere (MySQL TEXT would stop at 64 KiB).
      payload: { type: 'json' },
      timestamp: optionalDate,
      receivedAt: { type: 'date' },
      processedAt: optionalDate,
      attempts: { type: 'number', defaultValue: 1 },
    },
  },
  billingCustomer: {
    fields: {
      // The application's id for the payer: a user id, or an organization id for organization billing.
      externalId: { type: 'string', required: false, index: true },
      email: { type: 'string', required: false, index: true },
      emailVerified: { type: 'boolean' },
      name: optionalString,
      metadata: { type: 'json' },
      billingAddress: { type: 'json', required: false },
      taxId: { type: 'json', required: false },
      // The seller account on the billing platform (its `organization_id`), not an application organization.
      platformOrganizationId: { type: 'string' },
      avatarUrl: optionalString,
      deletedAt: optionalDate,
      // The timestamp of the newest customer state applied, in microseconds (mirror/customer-state.ts).
      stateVersion: { ...version, required: false },
      ...versioned,
    },
  },
  billingSubscription: {
    fields: {
      customerId: { type: 'string', index: true },
      productId: { type: 'string', index: true },
      status: { type: 'string' },
      // In the customer's active set: status active or trialing, or listed by the latest customer state.
      active: { type: 'boolean' },
      amount: { type: 'number' },
      currency: { type: 'string' },
      recurringInterval: { type: 'string' },
      currentPeriodStart: { type: 'date' },
      currentPeriodEnd: optionalDate,
      cancelAtPeriodEnd: { type: 'boolean' },
      canceledAt: optionalDate,
      startedAt: optionalDate,
      endsAt: optionalDate,
      endedAt: optionalDate,
      discountId: optionalString,
      checkoutId: optionalString,
      customerCancellationReason: optionalString,
      customerCancellationComment: optionalString,
      metadata: { type: 'json' },
      customFieldData: { type: 'json', required: false },
      meters: { type: 'json', defaultValue: () => [] },
      ...versioned,
    },
  },
  billingOrder: {
    fields: {
      customerId: { type: 'string', index: true },
      productId: optionalString,
      subscriptionId: { type: 'string', required: false, index: true },
      status: { type: 'string' },
      paid: { type: 'boolean' },
      billingReason: { type: 'string' },
      subtotalAmount: { type: 'number' },
      discountAmount: { type: 'number' },
      netAmount: { type: 'number' },
      taxAmount: { type: 'number' },
      totalAmount: { type: 'number' },
      refundedAmount: { type: 'number' },
      refundedTaxAmount: { type: 'number' },
      currency: { type: 'string' },
      discountId: optionalString,
      checkoutId: optionalString,
      items: { type: 'json' },
      metadata: { type: 'json' },
      ...versioned,
    },
  },
  billingBenefitGrant: {
    fields: {
      customerId: { type: 'string', index: true },
      benefitId: { type: 'string', index: true },
      benefitType: { type: 'string' },
      benefitMetadata: { type: 'json' },
      subscriptionId: optionalString,
      orderId: optionalString,
      isGranted: { type: 'boolean' },
      isRevoked: { type: 'boolean' },
      grantedAt: optionalDate,
      revokedAt: optionalDate,
      properties: { type: 'json' },
      error: { type: 'json', required: false },
      ...versioned,
    },
  },
  billingCustomerMeter: {
    fields: {
      customerId: { type: 'string', index: true },
      meterId: { type: 'string' },
      consumedUnits: { type: 'number' },
      creditedUnits: { type: 'number' },
      balance: { type: 'number' },
      // Listed by the latest customer state.
      active: { type: 'boolean' },
      ...versioned,
    },
  },
  // Outbound: one row per user whose platform customer must be created, updated or deleted
  // (outbound/customer-sync.ts). Kept after success, with what was pushed, so a retry is visible.
  billingCustomerSync: {
    fields: {
      referenceId: { type: 'string', unique: true },
      action: { type: 'string' },
      status: { type: 'string', index: true },
      // Bumped by every change; claims and results are conditional on it, so a stale attempt changes nothing.
      revision: { type: 'number' },
      attempts: { type: 'number' },
      nextAttemptAt: { type: 'date', index: true },
      claimedUntil: optionalDate,
      lastError: optionalString,
      email: optionalString,
      name: optionalString,
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
    },
  },
} as const satisfies SchemaExtension
