/**
 * @module
 * The outbound options of `billing(options)` (docs/billing.md#outbound-calls):
 * platform access, customers created on sign-up, checkout products by slug,
 * usage batching, and the usage catalogue that opens POST /usage/ingest to
 * signed-in users (usage-events.ts). Without `platform`, every outbound route answers
 * `BILLING_PLATFORM_NOT_CONFIGURED` and the webhook and reading routes work
 * as before.
 */
import type { PlatformOptions } from './platform.js'
import { DEFAULT_USAGE_RATE_LIMIT, resolveUsageEvents, type ResolvedUsageRule, type UsageEventRule, type UsageRateLimit } from './usage-events.js'

export interface CheckoutProduct {
  readonly productId: string
  readonly slug: string
}

export interface OutboundOptions {
  /** Access to the platform's API. */
  readonly platform?: PlatformOptions | undefined
  /** Create the platform customer (external id = user id) once a sign-up commits. Default false. */
  readonly createCustomerOnSignUp?: boolean | undefined
  /**
   * What happens to a deleted user's customer: `delete` (default) deletes it on the
   * platform by external id, anonymized, which ends its subscriptions; `keep` leaves it.
   */
  readonly onUserDeleted?: 'delete' | 'keep' | undefined
  readonly checkout?: {
    /** Products a checkout may name by slug. */
    readonly products?: readonly CheckoutProduct[] | undefined
    /** Where the platform sends the buyer after paying, when the request names none. */
    readonly successUrl?: string | undefined
    /** Refuse checkouts without a session (401). Default true. */
    readonly authenticatedUsersOnly?: boolean | undefined
  } | undefined
  readonly usage?: {
    /** How long ingested events wait for others before one call sends them all. Default 200 ms. */
    readonly batchWindowMs?: number | undefined
    /** At most this many events per call; a full batch is sent at once. Default 100. */
    readonly maxBatchSize?: number | undefined
    /**
     * The events signed-in users may report through POST /usage/ingest, each
     * with a `schema` or a `validate` callback and number bounds (docs/billing.md#usage-events).
     * Without it the route is server-only: `auth.api.ingestUsage` works, a request is 404.
     */
    readonly events?: Readonly<Record<string, UsageEventRule>> | undefined
    /** POST /usage/ingest requests per window and user. Default `{ window: 60, max: 60 }`; false turns the budget off. */
    readonly rateLimit?: UsageRateLimit | false | undefined
  } | undefined
}

export interface ResolvedOutbound {
  readonly platform: PlatformOptions | null
  readonly createCustomerOnSignUp: boolean
  readonly onUserDeleted: 'delete' | 'keep'
  readonly products: ReadonlyMap<string, string>
  readonly successUrl: string | undefined
  readonly authenticatedUsersOnly: boolean
  readonly batchWindowMs: number
  readonly maxBatchSize: number
  /** The events a request may report; null: the route is server-only. */
  readonly usageEvents: ReadonlyMap<string, ResolvedUsageRule> | null
  /** The per-user budget of POST /usage/ingest; null: none. */
  readonly usageRateLimit: UsageRateLimit | null
}

/**
 * @example
 * resolveOutbound({ platform: { accessToken }, checkout: { products: [{ productId, slug: 'pro' }] } }).products.get('pro')
 */
export function resolveOutbound(options: OutboundOptions): ResolvedOutbound {
  const platform = options.platform && options.platform.accessToken !== '' ? options.platform : null
  if (options.createCustomerOnSignUp && !platform) throw new Error('billing: createCustomerOnSignUp needs platform.accessToken')
  const products = new Map<string, string>()
  for (const { slug, productId } of options.checkout?.products ?? []) {
    if (products.has(slug)) throw new Error(`billing: checkout product slug ${JSON.stringify(slug)} is listed twice`)
    products.set(slug, productId)
  }
  const batchWindowMs = options.usage?.batchWindowMs ?? 200
  const maxBatchSize = options.usage?.maxBatchSize ?? 100
  if (!(batchWindowMs >= 0) || !(maxBatchSize >= 1)) throw new Error('billing: usage.batchWindowMs must be >= 0 and usage.maxBatchSize >= 1')
  const usageRateLimit = options.usage?.rateLimit === false ? null : (options.usage?.rateLimit ?? DEFAULT_USAGE_RATE_LIMIT)
  if (usageRateLimit && !(Number.isFinite(usageRateLimit.window) && usageRateLimit.window > 0 && Number.isInteger(usageRateLimit.max) && usageRateLimit.max >= 1)) {
    throw new Error('billing: usage.rateLimit needs a positive window (seconds) and a positive integer max')
  }
  return {
    platform,
    createCustomerOnSignUp: options.createCustomerOnSignUp ?? false,
    onUserDeleted: options.onUserDeleted ?? 'delete',
    products,
    successUrl: options.checkout?.successUrl,
    authenticatedUsersOnly: options.checkout?.authenticatedUsersOnly ?? true,
    batchWindowMs,
    maxBatchSize,
    usageEvents: options.usage?.events ? resolveUsageEvents(options.usage.events) : null,
    usageRateLimit,
  }
}
