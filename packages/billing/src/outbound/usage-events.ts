/**
 * @module
 * The usage catalogue (docs/billing.md#usage-events): which events a
 * signed-in user may report through POST /usage/ingest, and what their
 * metadata may hold. Usage is billing: an event a user invents, or a
 * negative quantity, is a bill they wrote themselves (a meter summing
 * `tokens` goes down, a meter credit goes up). So the route exists only for
 * the events the application lists, each checked by its own schema or
 * callback, and every number in the metadata must be finite and within the
 * event's bounds (at least 0 unless the event allows less).
 */
import { metadataSchema } from '../routes/checkout.js'

/** What an event's metadata may hold on the platform's side. */
export type UsageMetadata = Record<string, string | number | boolean>

/** A Standard Schema (zod 4, valibot, arktype...): only its `~standard.validate` is used. */
export interface UsageMetadataSchema {
  readonly '~standard': {
    readonly version: 1
    readonly validate: (value: unknown) => UsageSchemaResult | Promise<UsageSchemaResult>
  }
}

type UsageSchemaResult = { readonly value: unknown; readonly issues?: undefined } | { readonly issues: ReadonlyArray<{ readonly message: string }> }

/**
 * One event of `usage.events`: a `schema`, a `validate` callback, or both, and number bounds.
 *
 * @example
 * const rule: UsageEventRule = { schema: z.object({ tokens: z.number().int() }), max: 100_000 }
 */
export interface UsageEventRule {
  /** The metadata must pass it; its output (unknown keys stripped, say) is what the platform receives. */
  readonly schema?: UsageMetadataSchema
  /** Or (and) a callback: `true` accepts the event. */
  readonly validate?: (metadata: UsageMetadata, ctx: { readonly userId: string; readonly event: string }) => boolean | Promise<boolean>
  /** Smallest number any metadata value may be. Default 0: a negative quantity would credit the customer. */
  readonly min?: number
  /** Largest number any metadata value may be. Default `Number.MAX_SAFE_INTEGER`. */
  readonly max?: number
}

/**
 * The per-user budget of POST /usage/ingest (usage-budget.ts).
 *
 * @example
 * billing({ webhooks, platform, usage: { events, rateLimit: { window: 60, max: 120 } } })
 */
export interface UsageRateLimit {
  /** Window length in seconds. */
  readonly window: number
  /** Requests per window and user. */
  readonly max: number
}

export interface ResolvedUsageRule {
  readonly schema: UsageMetadataSchema | undefined
  readonly validate: UsageEventRule['validate']
  readonly min: number
  readonly max: number
}

/** Per user: one event a second on average, in bursts of up to 60. */
export const DEFAULT_USAGE_RATE_LIMIT: UsageRateLimit = { window: 60, max: 60 }

/**
 * Checks the catalogue once, when the plugin is made: an event without a
 * schema or a callback, or bounds that are not numbers, fail at start-up.
 *
 * @example
 * resolveUsageEvents({ 'api-call': { schema: z.object({ tokens: z.number().int().max(100_000) }) } })
 */
export function resolveUsageEvents(events: Readonly<Record<string, UsageEventRule>>): ReadonlyMap<string, ResolvedUsageRule> {
  const resolved = new Map<string, ResolvedUsageRule>()
  for (const [name, rule] of Object.entries(events)) {
    if (name === '' || name.length > 100) throw new Error(`billing: usage event names are 1 to 100 characters (got ${JSON.stringify(name)})`)
    if (!rule?.schema && typeof rule?.validate !== 'function') throw new Error(`billing: usage event ${JSON.stringify(name)} needs a schema or a validate callback`)
    const min = rule.min ?? 0
    const max = rule.max ?? Number.MAX_SAFE_INTEGER
    if (!Number.isFinite(min) || !Number.isFinite(max) || min > max) throw new Error(`billing: usage event ${JSON.stringify(name)} needs finite bounds with min <= max`)
    resolved.set(name, { schema: rule.schema, validate: rule.validate, min, max })
  }
  return resolved
}

/**
 * The metadata the platform receives for `event`, or null when the event's
 * rule refuses it. Whatever the schema answers, every number must be
 * finite and within the bounds (NaN, Infinity and out-of-range values
 * never reach a meter).
 *
 * @example
 * const metadata = await checkUsageEvent(rule, { tokens: 120 }, { userId, event: 'api-call' })
 */
export async function checkUsageEvent(rule: ResolvedUsageRule, metadata: UsageMetadata, ctx: { readonly userId: string; readonly event: string }): Promise<UsageMetadata | null> {
  let checked: unknown = metadata
  if (rule.schema) {
    const result = await rule.schema['~standard'].validate(metadata)
    if (result.issues) return null
    checked = result.value
  }
  const shaped = metadataSchema.safeParse(checked)
  if (!shaped.success || !withinBounds(shaped.data, rule.min, rule.max)) return null
  if (rule.validate && (await rule.validate(shaped.data, ctx)) !== true) return null
  return shaped.data
}

/** Every number finite and in [min, max]. */
function withinBounds(metadata: UsageMetadata, min: number, max: number): boolean {
  return Object.values(metadata).every((value) => typeof value !== 'number' || (Number.isFinite(value) && value >= min && value <= max))
}
