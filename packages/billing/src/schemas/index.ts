export { address, camelCase, entity, openEnum, taxId, taxIdFormat } from './common.js'
export { benefitGrantSchema, benefitSchema, grantErrorSchema, publicBenefitSchema } from './benefit.js'
export { grantPropertiesSchema } from './grant-properties.js'
export { checkoutSchema, checkoutStatus } from './checkout.js'
export {
  benefitType,
  customerSchema,
  customerStateBenefitGrantSchema,
  customerStateMeterSchema,
  customerStateSchema,
  customerStateSubscriptionMeterSchema,
  customerStateSubscriptionSchema,
} from './customer.js'
export { filterOperator, meterAggregationSchema, meterFilterSchema, meterSchema, subscriptionMeterSchema } from './meter.js'
export { billingReason, orderItemSchema, orderSchema, orderStatus, refundReason, refundSchema, refundStatus } from './order.js'
export { sellerOrganizationSchema, socialPlatform } from './organization.js'
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
export { cancellationReason, orderSubscriptionSchema, subscriptionSchema, subscriptionStatus } from './subscription.js'
export type * from './types.js'
