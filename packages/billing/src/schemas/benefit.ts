/**
 * @module
 * Benefits and benefit grants. A
 * benefit's `properties` depend on its type; a type this version does not
 * know still parses, with its properties as sent, so a new kind of benefit
 * on the platform never fails an event.
 */
import { z } from 'zod'
import { customerSchema, type Customer } from './customer.js'
import { datetime, entity, FALLBACK, metadata, openEnum, type Metadata, type Open } from './common.js'
import { grantPropertiesSchema, type GrantProperties } from './grant-properties.js'

interface BenefitBase<Type extends string, Properties> {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  type: Type
  description: string
  selectable: boolean
  deletable: boolean
  organizationId: string
  metadata: Metadata
  properties: Properties
}

export type CustomBenefit = BenefitBase<'custom', { [field: string]: unknown; note: string | null }>
export type DiscordBenefit = BenefitBase<'discord', { [field: string]: unknown; guildId: string; roleId: string; guildToken: string }>
export type GitHubRepositoryBenefit = BenefitBase<
  'github_repository',
  { [field: string]: unknown; repositoryOwner: string; repositoryName: string; permission: Open<'pull' | 'triage' | 'push' | 'maintain' | 'admin'> }
>
export type DownloadablesBenefit = BenefitBase<'downloadables', { [field: string]: unknown; archived: Record<string, boolean>; files: string[] }>
export type LicenseKeysBenefit = BenefitBase<
  'license_keys',
  {
    [field: string]: unknown
    prefix: string | null
    expires: { [field: string]: unknown; ttl: number; timeframe: 'year' | 'month' | 'day' } | null
    activations: { [field: string]: unknown; limit: number; enableCustomerAdmin: boolean } | null
    limitUsage: number | null
  }
>
export type MeterCreditBenefit = BenefitBase<'meter_credit', { [field: string]: unknown; units: number; rollover: boolean; meterId: string }>
/** A benefit of a type this version does not know, with its properties as sent. */
export type OtherBenefit = BenefitBase<string & {}, Record<string, unknown>>

/** A benefit, by type; narrow with `benefit.type`. */
export type Benefit = CustomBenefit | DiscordBenefit | GitHubRepositoryBenefit | DownloadablesBenefit | LicenseKeysBenefit | MeterCreditBenefit | OtherBenefit

/** The public view: no properties, no metadata. */
export interface PublicBenefit {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  type: string
  description: string
  selectable: boolean
  deletable: boolean
  organizationId: string
}

export interface GrantError {
  [field: string]: unknown
  message: string
  type: string
  timestamp: string
}

export interface BenefitGrant {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  grantedAt?: Date | null
  isGranted: boolean
  revokedAt?: Date | null
  isRevoked: boolean
  subscriptionId: string | null
  orderId: string | null
  customerId: string
  benefitId: string
  error?: GrantError | null
  customer: Customer
  benefit: Benefit
  properties: GrantProperties
  previousProperties?: GrantProperties | null
}

const benefitBase = {
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  description: z.string(),
  selectable: z.boolean(),
  deletable: z.boolean(),
  organization_id: z.string(),
  metadata,
}

const timeframe = z.enum(['year', 'month', 'day'])

const knownBenefits = [
  entity({ ...benefitBase, type: z.literal('custom'), properties: entity({ note: z.string().nullable() }) }),
  entity({
    ...benefitBase,
    type: z.literal('discord'),
    properties: entity({ guild_id: z.string(), role_id: z.string(), guild_token: z.string() }),
  }),
  entity({
    ...benefitBase,
    type: z.literal('github_repository'),
    properties: entity({
      repository_owner: z.string(),
      repository_name: z.string(),
      permission: openEnum(['pull', 'triage', 'push', 'maintain', 'admin']),
    }),
  }),
  entity({
    ...benefitBase,
    type: z.literal('downloadables'),
    properties: entity({ archived: z.record(z.string(), z.boolean()), files: z.array(z.string()) }),
  }),
  entity({
    ...benefitBase,
    type: z.literal('license_keys'),
    properties: entity({
      prefix: z.string().nullable(),
      expires: entity({ ttl: z.number().int(), timeframe }).nullable(),
      activations: entity({ limit: z.number().int(), enable_customer_admin: z.boolean() }).nullable(),
      limit_usage: z.number().int().nullable(),
    }),
  }),
  entity({
    ...benefitBase,
    type: z.literal('meter_credit'),
    properties: entity({ units: z.number().int(), rollover: z.boolean(), meter_id: z.string() }),
  }),
] as const

const knownTypes: readonly string[] = ['custom', 'discord', 'github_repository', 'downloadables', 'license_keys', 'meter_credit']

/** A benefit of a type this version does not know: kept, with its properties as sent. */
const otherBenefit = entity({
  ...benefitBase,
  type: z.string().refine((type) => !knownTypes.includes(type), { message: 'Known benefit type with invalid fields', params: FALLBACK }),
  properties: z.record(z.string(), z.unknown()),
})

/**
 * Known types are told apart by `type` (one lookup, not a try of each); any
 * other type falls through to `otherBenefit`.
 *
 * @example
 * const benefit = benefitSchema.parse(wire.data)
 * if (benefit.type === 'license_keys') benefit.properties.limitUsage
 */
export const benefitSchema: z.ZodType<Benefit> = z.union([z.discriminatedUnion('type', knownBenefits), otherBenefit])

/** The public view of a benefit: no properties and no metadata. */
export const publicBenefitSchema: z.ZodType<PublicBenefit> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  type: z.string(),
  description: z.string(),
  selectable: z.boolean(),
  deletable: z.boolean(),
  organization_id: z.string(),
})

export const grantErrorSchema: z.ZodType<GrantError> = entity({ message: z.string(), type: z.string(), timestamp: z.string() })

/**
 * @example
 * const grant = benefitGrantSchema.parse(wire.data)
 * grant.isGranted && grant.benefit.type === 'downloadables'
 */
export const benefitGrantSchema: z.ZodType<BenefitGrant> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  granted_at: datetime.nullish(),
  is_granted: z.boolean(),
  revoked_at: datetime.nullish(),
  is_revoked: z.boolean(),
  subscription_id: z.string().nullable(),
  order_id: z.string().nullable(),
  customer_id: z.string(),
  benefit_id: z.string(),
  error: grantErrorSchema.nullish(),
  customer: customerSchema,
  benefit: benefitSchema,
  properties: grantPropertiesSchema,
  previous_properties: grantPropertiesSchema.nullish(),
})
