/**
 * @module
 * What is sold: the platform's product, product price, product media file,
 * custom field and discount objects. Prices are told apart by `amount_type`; a
 * price kind this version does not know still parses, as do legacy
 * recurring prices (`legacy: true`).
 */
import { z } from 'zod'
import { benefitSchema, publicBenefitSchema, type Benefit, type PublicBenefit } from './benefit.js'
import { amount, datetime, entity, FALLBACK, metadata, openEnum, recurringInterval, type Metadata, type Open } from './common.js'

type RecurringInterval = Open<'month' | 'year' | 'day' | 'week'>

interface PriceBase<AmountType extends string> {
  [field: string]: unknown
  id: string
  createdAt?: Date
  modifiedAt?: Date | null
  isArchived: boolean
  productId: string
  amountType: AmountType
  /** Older payloads carry both on every price; the platform now sends them on legacy recurring prices only. */
  type?: Open<'one_time' | 'recurring'>
  recurringInterval?: RecurringInterval | null
  /** Legacy recurring prices (fixed, custom, free). */
  legacy?: boolean
}

export interface FixedPrice extends PriceBase<'fixed'> {
  priceAmount: number
  priceCurrency: string
}
export interface CustomPrice extends PriceBase<'custom'> {
  priceCurrency: string
  minimumAmount: number | null
  maximumAmount: number | null
  presetAmount: number | null
}
export type FreePrice = PriceBase<'free'>
export interface MeteredUnitPrice extends PriceBase<'metered_unit'> {
  priceCurrency: string
  /** A decimal, as a string (fractions of a minor unit). */
  unitAmount: string
  capAmount: number | null
  meterId: string
  meter: { [field: string]: unknown; id: string; name: string }
}
/** A price of a kind this version does not know, with its fields as sent. */
export type OtherPrice = PriceBase<string & {}>

/** A product price, by `amountType`. */
export type ProductPrice = FixedPrice | CustomPrice | FreePrice | MeteredUnitPrice | OtherPrice

export interface ProductMedia {
  [field: string]: unknown
  id: string
  organizationId: string
  name: string
  path: string
  mimeType: string
  size: number
  storageVersion: string | null
  checksumEtag?: string | null
  checksumSha256Base64?: string | null
  checksumSha256Hex?: string | null
  lastModifiedAt: Date | null
  version: string | null
  service: 'product_media'
  isUploaded: boolean
  createdAt: Date
  sizeReadable: string
  publicUrl: string
}

export interface CustomField {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  slug: string
  name: string
  type: Open<'checkbox' | 'date' | 'number' | 'select' | 'text'>
  organizationId: string
  metadata: Metadata
  properties: {
    [field: string]: unknown
    formLabel?: string
    formHelpText?: string
    formPlaceholder?: string
    ge?: number
    le?: number
    options?: Array<{ [field: string]: unknown; value: string; label: string }>
    textarea?: boolean
    minLength?: number
    maxLength?: number
  }
}

export interface AttachedCustomField {
  [field: string]: unknown
  customFieldId: string
  customField: CustomField
  order: number
  required: boolean
}

export interface Discount {
  [field: string]: unknown
  id: string
  name: string
  code: string | null
  duration: Open<'once' | 'forever' | 'repeating'>
  durationInMonths?: number
  type: Open<'fixed' | 'percentage'>
  amount?: number
  currency?: string
  basisPoints?: number
  createdAt?: Date
  modifiedAt?: Date | null
  metadata?: Metadata
  startsAt?: Date | null
  endsAt?: Date | null
  maxRedemptions?: number | null
  redemptionsCount?: number
  organizationId?: string
}

export interface ProductSummary {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  name: string
  description: string | null
  recurringInterval: RecurringInterval | null
  isRecurring: boolean
  isArchived: boolean
  organizationId: string
  metadata: Metadata
}

export interface CheckoutProduct extends Omit<ProductSummary, 'metadata'> {
  prices: ProductPrice[]
  medias: ProductMedia[]
  benefits: PublicBenefit[]
}

export interface Product extends ProductSummary {
  prices: ProductPrice[]
  medias: ProductMedia[]
  benefits: Benefit[]
  attachedCustomFields: AttachedCustomField[]
}

const priceBase = {
  id: z.string(),
  created_at: datetime.optional(),
  modified_at: datetime.nullish(),
  is_archived: z.boolean(),
  product_id: z.string(),
  // Older payloads carry both; the platform now keeps them on the product and sends them on legacy prices only.
  type: openEnum(['one_time', 'recurring']).optional(),
  recurring_interval: recurringInterval.nullish(),
  legacy: z.boolean().optional(),
}

const knownPrices = [
  entity({ ...priceBase, amount_type: z.literal('fixed'), price_amount: amount, price_currency: z.string() }),
  entity({
    ...priceBase,
    amount_type: z.literal('custom'),
    price_currency: z.string(),
    minimum_amount: amount.nullable(),
    maximum_amount: amount.nullable(),
    preset_amount: amount.nullable(),
  }),
  entity({ ...priceBase, amount_type: z.literal('free') }),
  entity({
    ...priceBase,
    amount_type: z.literal('metered_unit'),
    price_currency: z.string(),
    // The metered unit amount is a string (a decimal), unlike every other amount.
    unit_amount: z.string(),
    cap_amount: amount.nullable(),
    meter_id: z.string(),
    meter: entity({ id: z.string(), name: z.string() }),
  }),
] as const

const knownAmountTypes: readonly string[] = ['fixed', 'custom', 'free', 'metered_unit']

const otherPrice = entity({
  ...priceBase,
  amount_type: z.string().refine((type) => !knownAmountTypes.includes(type), { message: 'Known price type with invalid fields', params: FALLBACK }),
})

/**
 * @example
 * const price = productPriceSchema.parse(wire)
 * if (price.amountType === 'fixed') price.priceAmount
 */
export const productPriceSchema: z.ZodType<ProductPrice> = z.union([z.discriminatedUnion('amount_type', knownPrices), otherPrice])

export const productMediaSchema: z.ZodType<ProductMedia> = entity({
  id: z.string(),
  organization_id: z.string(),
  name: z.string(),
  path: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  storage_version: z.string().nullable(),
  checksum_etag: z.string().nullish(),
  checksum_sha256_base64: z.string().nullish(),
  checksum_sha256_hex: z.string().nullish(),
  last_modified_at: datetime.nullable(),
  version: z.string().nullable(),
  service: z.literal('product_media'),
  is_uploaded: z.boolean(),
  created_at: datetime,
  size_readable: z.string(),
  public_url: z.string(),
})

/** A custom field: the form texts plus the bounds of each type (ge, le, min_length, max_length). */
export const customFieldSchema: z.ZodType<CustomField> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  slug: z.string(),
  name: z.string(),
  type: openEnum(['checkbox', 'date', 'number', 'select', 'text']),
  organization_id: z.string(),
  metadata,
  properties: entity({
    form_label: z.string().optional(),
    form_help_text: z.string().optional(),
    form_placeholder: z.string().optional(),
    ge: z.number().int().optional(),
    le: z.number().int().optional(),
    options: z.array(entity({ value: z.string(), label: z.string() })).optional(),
    textarea: z.boolean().optional(),
    min_length: z.number().int().optional(),
    max_length: z.number().int().optional(),
  }),
})

export const attachedCustomFieldSchema: z.ZodType<AttachedCustomField> = entity({
  custom_field_id: z.string(),
  custom_field: customFieldSchema,
  order: z.number().int(),
  required: z.boolean(),
})

/** A discount: once, forever or repeating; fixed or percentage (basis points). The full form adds the rest. */
export const discountSchema: z.ZodType<Discount> = entity({
  id: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  duration: openEnum(['once', 'forever', 'repeating']),
  duration_in_months: z.number().int().optional(),
  type: openEnum(['fixed', 'percentage']),
  amount: amount.optional(),
  currency: z.string().optional(),
  basis_points: z.number().int().optional(),
  created_at: datetime.optional(),
  modified_at: datetime.nullish(),
  metadata: metadata.optional(),
  starts_at: datetime.nullish(),
  ends_at: datetime.nullish(),
  max_redemptions: z.number().int().nullish(),
  redemptions_count: z.number().int().optional(),
  organization_id: z.string().optional(),
})

const productSummaryFields = {
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  name: z.string(),
  description: z.string().nullable(),
  recurring_interval: recurringInterval.nullable(),
  is_recurring: z.boolean(),
  is_archived: z.boolean(),
  organization_id: z.string(),
}

const productFields = {
  ...productSummaryFields,
  prices: z.array(productPriceSchema),
  medias: z.array(productMediaSchema),
}

/** The product as an order names it: the product itself, without prices, benefits or media. */
export const productSummarySchema: z.ZodType<ProductSummary> = entity({ ...productSummaryFields, metadata })

/**
 * @example
 * productSchema.parse(wire.data).prices.filter((price) => !price.isArchived)
 */
export const productSchema: z.ZodType<Product> = entity({
  ...productFields,
  metadata,
  benefits: z.array(benefitSchema),
  attached_custom_fields: z.array(attachedCustomFieldSchema),
})

/** The product as a checkout shows it: no metadata or attached fields. */
export const checkoutProductSchema: z.ZodType<CheckoutProduct> = entity({
  ...productFields,
  benefits: z.array(publicBenefitSchema),
})
