export { address, camelCase, entity, openEnum, taxId, taxIdFormat } from './common.js'
export type { Address, CamelCase, CamelKeys, CustomFieldData, Metadata, Open } from './common.js'
export { benefitGrantSchema, benefitSchema, grantErrorSchema, publicBenefitSchema } from './benefit.js'
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
export { grantPropertiesSchema } from './grant-properties.js'
export type { GrantProperties } from './grant-properties.js'
export { checkoutSchema, checkoutStatus } from './checkout.js'
export type { Checkout, CheckoutStatus } from './checkout.js'
export {
  benefitType,
  customerSchema,
  customerStateBenefitGrantSchema,
  customerStateMeterSchema,
  customerStateSchema,
  customerStateSubscriptionMeterSchema,
  customerStateSubscriptionSchema,
} from './customer.js'
export type {
  BenefitType,
  Customer,
  CustomerStateBenefitGrant,
  CustomerStateMeter,
  CustomerStatePayload,
  CustomerStateSubscription,
  CustomerStateSubscriptionMeter,
} from './customer.js'
export { filterOperator, meterAggregationSchema, meterFilterSchema, meterSchema, subscriptionMeterSchema } from './meter.js'
export type { FilterOperator, Meter, MeterAggregation, MeterClause, MeterFilter, SubscriptionMeter } from './meter.js'
export { billingReason, orderItemSchema, orderSchema, orderStatus, refundReason, refundSchema, refundStatus } from './order.js'
export type { BillingReason, Order, OrderItem, OrderStatus, Refund, RefundReason, RefundStatus } from './order.js'
export { sellerOrganizationSchema, socialPlatform } from './organization.js'
export type { SellerOrganization, SocialPlatform } from './organization.js'
export {
  attachedCustomFieldSchema,
  checkoutProductSchema,
  customFieldSchema,
  discountSchema,
  productMediaSchema,
  productPriceSchema,
  productSchema,
  productSummarySchema,
} from './product.js'
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
export { cancellationReason, orderSubscriptionSchema, subscriptionSchema, subscriptionStatus } from './subscription.js'
export type { CancellationReason, OrderSubscription, Subscription, SubscriptionStatus } from './subscription.js'
