/**
 * @module
 * What the billing reading routes answer (read/shapes.ts on the server;
 * docs/billing.md#reading), as
 * zod/mini schemas the client checks responses against. Known fields are
 * checked and every Date the server sends as a Date is revived from its JSON
 * text, nested ones too (a subscription's meters); other fields pass through
 * untouched, so a server with more fields than this client knows still works.
 *
 * Text that only looks like a date stays text, as it is on the server:
 * custom field values, benefit grant properties, a grant error's timestamp
 * and the fields the platform sends that the mirror does not name (an order
 * item's `createdAt`). Written here, not imported from the server code, so a
 * browser bundle holds only these few schemas and none of the webhook parsers.
 */
import { isoDate } from '@gatehouse/react/client'
import * as z from 'zod/mini'

const maybeDate = z.nullable(isoDate)

/** The platform's metadata: flat values only. */
const metadata = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))

const customFieldData = z.nullable(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])))

/** An address: country required, every line optional and nullable. */
const address = z.looseObject({
  country: z.string(),
  line1: z.optional(z.nullable(z.string())),
  line2: z.optional(z.nullable(z.string())),
  postalCode: z.optional(z.nullable(z.string())),
  city: z.optional(z.nullable(z.string())),
  state: z.optional(z.nullable(z.string())),
})

/** A subscription's usage of one meter. */
const meterUsage = z.looseObject({
  id: z.string(),
  createdAt: isoDate,
  modifiedAt: maybeDate,
  consumedUnits: z.number(),
  creditedUnits: z.number(),
  amount: z.number(),
  meterId: z.string(),
})

/** The fields a subscription has in the customer state and in the list alike. */
const subscriptionFields = {
  id: z.string(),
  createdAt: isoDate,
  modifiedAt: maybeDate,
  customFieldData,
  metadata,
  status: z.string(),
  amount: z.number(),
  currency: z.string(),
  recurringInterval: z.string(),
  currentPeriodStart: isoDate,
  currentPeriodEnd: maybeDate,
  cancelAtPeriodEnd: z.boolean(),
  canceledAt: maybeDate,
  startedAt: maybeDate,
  endsAt: maybeDate,
  productId: z.string(),
  discountId: z.nullable(z.string()),
  meters: z.array(meterUsage),
}

/** The customer state: the customer, its active subscriptions, granted benefits and active meters. */
export const customerStateShape = z.looseObject({
  id: z.string(),
  createdAt: isoDate,
  modifiedAt: maybeDate,
  metadata,
  externalId: z.nullable(z.string()),
  email: z.nullable(z.string()),
  emailVerified: z.boolean(),
  name: z.nullable(z.string()),
  billingAddress: z.nullable(address),
  taxId: z.nullable(z.array(z.nullable(z.string()))),
  organizationId: z.string(),
  deletedAt: maybeDate,
  avatarUrl: z.nullable(z.string()),
  activeSubscriptions: z.array(z.looseObject(subscriptionFields)),
  grantedBenefits: z.array(
    z.looseObject({
      id: z.string(),
      createdAt: isoDate,
      modifiedAt: maybeDate,
      grantedAt: maybeDate,
      benefitId: z.string(),
      benefitType: z.string(),
      benefitMetadata: metadata,
      properties: z.record(z.string(), z.unknown()),
    }),
  ),
  activeMeters: z.array(
    z.looseObject({
      id: z.string(),
      createdAt: isoDate,
      modifiedAt: maybeDate,
      meterId: z.string(),
      consumedUnits: z.number(),
      creditedUnits: z.number(),
      balance: z.number(),
    }),
  ),
})

/** A subscription as the list shows it: the state's fields and the rest of the mirror's row. */
export const subscriptionShape = z.looseObject({
  ...subscriptionFields,
  customerId: z.string(),
  active: z.boolean(),
  endedAt: maybeDate,
  checkoutId: z.nullable(z.string()),
  customerCancellationReason: z.nullable(z.string()),
  customerCancellationComment: z.nullable(z.string()),
})

export const orderShape = z.looseObject({
  id: z.string(),
  customerId: z.string(),
  productId: z.nullable(z.string()),
  subscriptionId: z.nullable(z.string()),
  status: z.string(),
  paid: z.boolean(),
  billingReason: z.string(),
  subtotalAmount: z.number(),
  discountAmount: z.number(),
  netAmount: z.number(),
  taxAmount: z.number(),
  totalAmount: z.number(),
  refundedAmount: z.number(),
  refundedTaxAmount: z.number(),
  currency: z.string(),
  discountId: z.nullable(z.string()),
  checkoutId: z.nullable(z.string()),
  items: z.array(
    z.looseObject({
      id: z.string(),
      label: z.string(),
      amount: z.number(),
      taxAmount: z.number(),
      proration: z.boolean(),
      productPriceId: z.nullable(z.string()),
    }),
  ),
  metadata,
  createdAt: isoDate,
  modifiedAt: maybeDate,
})

export const benefitGrantShape = z.looseObject({
  id: z.string(),
  customerId: z.string(),
  benefitId: z.string(),
  benefitType: z.string(),
  benefitMetadata: metadata,
  subscriptionId: z.nullable(z.string()),
  orderId: z.nullable(z.string()),
  isGranted: z.boolean(),
  isRevoked: z.boolean(),
  grantedAt: maybeDate,
  revokedAt: maybeDate,
  properties: z.record(z.string(), z.unknown()),
  error: z.nullable(z.looseObject({ message: z.string(), type: z.string(), timestamp: z.string() })),
  createdAt: isoDate,
  modifiedAt: maybeDate,
})

/**
 * The answer of the three lists: one page, newest first, and the total.
 *
 * @example
 * const ordersPage = page(orderShape)
 */
export function page<Item extends z.ZodMiniType>(item: Item) {
  return z.looseObject({ items: z.array(item), total: z.number() })
}
