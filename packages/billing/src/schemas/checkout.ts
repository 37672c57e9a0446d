/**
 * @module
 * Checkouts and their status. The product a
 * checkout shows is the public view; the billing address form says, per
 * line, whether it is required, optional or disabled.
 */
import { z } from 'zod'
import { address, amount, customFieldData, datetime, entity, metadata, openEnum, type Address, type CustomFieldData, type Metadata, type Open } from './common.js'
import {
  attachedCustomFieldSchema,
  checkoutProductSchema,
  discountSchema,
  productPriceSchema,
  type AttachedCustomField,
  type CheckoutProduct,
  type Discount,
  type ProductPrice,
} from './product.js'

export type CheckoutStatus = Open<'open' | 'expired' | 'confirmed' | 'succeeded' | 'failed'>
type AddressField = Open<'required' | 'optional' | 'disabled'>

export interface Checkout {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  customFieldData?: CustomFieldData
  paymentProcessor: 'stripe'
  status: CheckoutStatus
  clientSecret: string
  url: string
  expiresAt: Date
  successUrl: string
  embedOrigin: string | null
  amount: number
  discountAmount: number
  netAmount: number
  taxAmount: number | null
  totalAmount: number
  currency: string
  productId: string | null
  productPriceId: string | null
  discountId: string | null
  allowDiscountCodes: boolean
  requireBillingAddress: boolean
  isDiscountApplicable: boolean
  isFreeProductPrice: boolean
  isPaymentRequired: boolean
  isPaymentSetupRequired: boolean
  isPaymentFormRequired: boolean
  customerId: string | null
  isBusinessCustomer: boolean
  customerName: string | null
  customerEmail: string | null
  customerIpAddress: string | null
  customerBillingName: string | null
  customerBillingAddress: Address | null
  customerTaxId: string | null
  paymentProcessorMetadata: Record<string, string>
  /** Per address line: required, optional or disabled. */
  billingAddressFields?: { [field: string]: unknown; country: AddressField; state: AddressField; city: AddressField; postalCode: AddressField; line1: AddressField; line2: AddressField }
  metadata: Metadata
  externalCustomerId?: string | null
  customerExternalId?: string | null
  products: CheckoutProduct[]
  product: CheckoutProduct | null
  productPrice: ProductPrice | null
  discount: Discount | null
  subscriptionId: string | null
  attachedCustomFields: AttachedCustomField[]
  customerMetadata: Metadata
}

export const checkoutStatus: z.ZodType<CheckoutStatus> = openEnum(['open', 'expired', 'confirmed', 'succeeded', 'failed'])

const addressField: z.ZodType<AddressField> = openEnum(['required', 'optional', 'disabled'])

/**
 * @example
 * const checkout = checkoutSchema.parse(wire.data)
 * checkout.status === 'succeeded' && checkout.customerId
 */
export const checkoutSchema: z.ZodType<Checkout> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  custom_field_data: customFieldData.optional(),
  payment_processor: z.literal('stripe'),
  status: checkoutStatus,
  client_secret: z.string(),
  url: z.string(),
  expires_at: datetime,
  success_url: z.string(),
  embed_origin: z.string().nullable(),
  amount,
  discount_amount: amount,
  net_amount: amount,
  tax_amount: amount.nullable(),
  total_amount: amount,
  currency: z.string(),
  product_id: z.string().nullable(),
  product_price_id: z.string().nullable(),
  discount_id: z.string().nullable(),
  allow_discount_codes: z.boolean(),
  require_billing_address: z.boolean(),
  is_discount_applicable: z.boolean(),
  is_free_product_price: z.boolean(),
  is_payment_required: z.boolean(),
  is_payment_setup_required: z.boolean(),
  is_payment_form_required: z.boolean(),
  customer_id: z.string().nullable(),
  is_business_customer: z.boolean(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  customer_ip_address: z.string().nullable(),
  customer_billing_name: z.string().nullable(),
  customer_billing_address: address.nullable(),
  customer_tax_id: z.string().nullable(),
  payment_processor_metadata: z.record(z.string(), z.string()),
  billing_address_fields: entity({
    country: addressField,
    state: addressField,
    city: addressField,
    postal_code: addressField,
    line1: addressField,
    line2: addressField,
  }).optional(),
  metadata,
  external_customer_id: z.string().nullish(),
  customer_external_id: z.string().nullish(),
  products: z.array(checkoutProductSchema),
  product: checkoutProductSchema.nullable(),
  product_price: productPriceSchema.nullable(),
  discount: discountSchema.nullable(),
  subscription_id: z.string().nullable(),
  attached_custom_fields: z.array(attachedCustomFieldSchema),
  customer_metadata: metadata,
})
