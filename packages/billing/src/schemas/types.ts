/**
 * @module
 * The types of the event schemas' values (docs/billing.md#events), apart from
 * the schemas themselves: the package's main entry exports these without
 * loading a single schema.
 */
export type { Address, CamelCase, CamelKeys, CustomFieldData, Metadata, Open } from './common.js'
export type {
  Benefit,
  BenefitGrant,
  CustomBenefit,
  DiscordBenefit,
  DownloadablesBenefit,
  GitHubRepositoryBenefit,
  GrantError,
  LicenseKeysBenefit,
  MeterCreditBenefit,
  OtherBenefit,
  PublicBenefit,
} from './benefit.js'
export type { GrantProperties } from './grant-properties.js'
export type { Checkout, CheckoutStatus } from './checkout.js'
export type {
  BenefitType,
  Customer,
  CustomerStateBenefitGrant,
  CustomerStateMeter,
  CustomerStatePayload,
  CustomerStateSubscription,
  CustomerStateSubscriptionMeter,
} from './customer.js'
export type { FilterOperator, Meter, MeterAggregation, MeterClause, MeterFilter, SubscriptionMeter } from './meter.js'
export type { BillingReason, Order, OrderItem, OrderStatus, Refund, RefundReason, RefundStatus } from './order.js'
export type { SellerOrganization, SocialPlatform } from './organization.js'
export type {
  AttachedCustomField,
  CheckoutProduct,
  CustomField,
  CustomPrice,
  Discount,
  FixedPrice,
  FreePrice,
  MeteredUnitPrice,
  OtherPrice,
  Product,
  ProductMedia,
  ProductPrice,
  ProductSummary,
} from './product.js'
export type { CancellationReason, OrderSubscription, Subscription, SubscriptionStatus } from './subscription.js'
