/**
 * @module
 * The seller organization: the account on
 * the billing platform that sells, not an organization of the application.
 * Issue funding is off unless the settings say otherwise.
 */
import { z } from 'zod'
import { datetime, entity, openEnum, type Open } from './common.js'

export type SocialPlatform = Open<'x' | 'github' | 'facebook' | 'instagram' | 'youtube' | 'tiktok' | 'linkedin' | 'other'>

export interface SellerOrganization {
  [field: string]: unknown
  id: string
  createdAt?: Date
  modifiedAt?: Date | null
  name: string
  slug: string
  avatarUrl: string | null
  email: string | null
  website: string | null
  socials: Array<{ [field: string]: unknown; platform: SocialPlatform; url: string }>
  detailsSubmittedAt: Date | null
  featureSettings: { [field: string]: unknown; issueFundingEnabled: boolean } | null
  subscriptionSettings: {
    [field: string]: unknown
    allowMultipleSubscriptions: boolean
    allowCustomerUpdates?: boolean
    prorationBehavior: Open<'invoice' | 'prorate'>
  }
}

export const socialPlatform: z.ZodType<SocialPlatform> = openEnum(['x', 'github', 'facebook', 'instagram', 'youtube', 'tiktok', 'linkedin', 'other'])

/**
 * @example
 * sellerOrganizationSchema.parse(wire.data).subscriptionSettings.allowMultipleSubscriptions
 */
export const sellerOrganizationSchema: z.ZodType<SellerOrganization> = entity({
  id: z.string(),
  created_at: datetime.optional(),
  modified_at: datetime.nullish(),
  name: z.string(),
  slug: z.string(),
  avatar_url: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  socials: z.array(entity({ platform: socialPlatform, url: z.string() })),
  details_submitted_at: datetime.nullable(),
  feature_settings: entity({ issue_funding_enabled: z.boolean().default(false) }).nullable(),
  subscription_settings: entity({
    allow_multiple_subscriptions: z.boolean(),
    allow_customer_updates: z.boolean().optional(),
    proration_behavior: openEnum(['invoice', 'prorate']),
  }),
})
