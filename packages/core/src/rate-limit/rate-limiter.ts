/**
 * @module
 * The rate limiter the HTTP layer consults before running an endpoint. It
 * resolves the rule for the path, counts the request under `${ip}|${path}`
 * in the configured store, and says whether to go on; the HTTP layer turns a
 * refusal into a 429 with an `X-Retry-After` header. Configuration mistakes
 * (a store that cannot count atomically, a rule with no window) throw when the
 * limiter is created, so they surface at start-up and not under attack.
 */
import type { Clock } from '../crypto/clock.js'
import type { Adapter } from '../db/adapter.js'
import type { SecondaryStorage } from '../storage/types.js'
import type { Logger } from '../logging/logger.js'
import {
  assertValidRule,
  failsClosed,
  DEFAULT_MAX_REQUESTS,
  DEFAULT_WINDOW_SECONDS,
  resolveRule,
  type PluginRateLimitRule,
  type RateLimitOptions,
  type RateLimitStorageKind,
} from './rules.js'
import { databaseRateLimitStore } from './storage-database.js'
import { memoryRateLimitStore } from './storage-memory.js'
import { secondaryRateLimitStore } from './storage-secondary.js'
import type { RateLimitDecision, RateLimitStore } from './store.js'

/** A store outage usually lasts longer than a rate-limit window's rounding: ask for a few seconds. */
const STORE_DOWN_RETRY_SECONDS = 3
const WARN_INTERVAL_MS = 10_000

export interface RateLimiterConfig {
  options?: RateLimitOptions
  /** Needed when `options.storage` is 'database'. */
  adapter?: Adapter
  /** Needed when `options.storage` is 'secondary-storage'; its presence makes that the default. */
  secondaryStorage?: SecondaryStorage
  clock: Clock
  /** Rules the installed plugins declare for their endpoints. */
  pluginRules?: readonly PluginRateLimitRule[]
  /** Told when the counter store fails, at most once per 10 s. */
  logger?: Logger
  /** The counter store, when the caller built it already ({@link createRateLimitStore}): plugins count in the same one. */
  store?: RateLimitStore
}

/**
 * `unavailable`: the counter store could not be reached and the path fails
 * closed (docs/rate-limits.md#when-the-store-is-down); the HTTP layer answers 503.
 */
export type RateLimitResult =
  | { allowed: true }
  | { allowed: false; retryAfterSeconds: number; unavailable?: undefined }
  | { allowed: false; retryAfterSeconds: number; unavailable: true }

export interface RateLimiter {
  /**
   * Counts one request. `ip` must already be normalised (an IPv6 address to
   * its /64), so one client cannot spread its requests over many keys.
   * `null` says no client address could be derived: a credential path
   * (`failsClosed`) then counts the request under {@link UNIDENTIFIED_CLIENT_KEY},
   * shared by all such requests, and any other path lets it through uncounted
   * (docs/rate-limits.md#defaults).
   */
  check(args: { path: string; ip: string | null }): Promise<RateLimitResult>
}

/**
 * The key of requests whose client cannot be identified: they share one
 * budget per path. Where a password guesser would otherwise go unlimited,
 * one shared budget is the lesser harm, even though one client can then use
 * it up for everybody.
 */
export const UNIDENTIFIED_CLIENT_KEY = 'unidentified'

/**
 * Creates the rate limiter from the `rateLimit` options.
 *
 * @example
 * const limiter = createRateLimiter({ options: { window: 60, max: 100 }, secondaryStorage, clock: systemClock })
 * const result = await limiter.check({ path: '/sign-in/email', ip: '203.0.113.7' })
 * if (!result.allowed) throw new AuthError(CoreErrors.TOO_MANY_REQUESTS, {
 *   headers: { 'X-Retry-After': String(result.retryAfterSeconds) },
 * })
 */
export function createRateLimiter(config: RateLimiterConfig): RateLimiter {
  const options = config.options ?? {}
  if (options.enabled === false) {
    return { check: async () => ({ allowed: true }) }
  }

  assertValidRule(
    { window: options.window ?? DEFAULT_WINDOW_SECONDS, max: options.max ?? DEFAULT_MAX_REQUESTS },
    'rateLimit',
  )
  for (const [path, rule] of Object.entries(options.customRules ?? {})) {
    if (rule !== false) assertValidRule(rule, `rateLimit.customRules['${path}']`)
  }
  const pluginRules = config.pluginRules ?? []
  for (const rule of pluginRules) assertValidRule(rule, 'a plugin rule')

  const store = config.store ?? createRateLimitStore(config)
  let lastWarning = Number.NEGATIVE_INFINITY
  const warnStoreDown = (error: unknown, closed: boolean): void => {
    if (performance.now() - lastWarning < WARN_INTERVAL_MS) return
    lastWarning = performance.now()
    config.logger?.warn('rate limit store unavailable: credential paths answer 503, others go through uncounted', {
      policy: closed ? 'fail-closed' : 'fail-open',
      message: error instanceof Error ? error.message : String(error),
    })
  }

  return {
    async check({ path, ip }) {
      const rule = resolveRule(path, options, pluginRules)
      if (rule === null) return { allowed: true }
      const closed = failsClosed(path, options, pluginRules)
      if (ip === null && !closed) return { allowed: true }
      const key = ip ?? UNIDENTIFIED_CLIENT_KEY
      let decision: RateLimitDecision
      try {
        decision = await store.hit(`${key}|${path}`, rule, config.clock.now())
      } catch (error) {
        warnStoreDown(error, closed)
        return closed ? { allowed: false, retryAfterSeconds: STORE_DOWN_RETRY_SECONDS, unavailable: true } : { allowed: true }
      }
      return decision.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: decision.retryAfterSeconds }
    },
  }
}

/**
 * The counter store `rateLimit.storage` names (secondary storage when one is
 * configured, else memory). Built once per auth: core's limiter and every
 * plugin's own limits (an API key's window) count in it, so each budget is
 * shared by all processes exactly when core's are (docs/rate-limits.md#where-counters-live).
 *
 * @example
 * const store = createRateLimitStore({ options: { storage: 'database' }, adapter, clock: systemClock })
 * const { allowed } = await store.hit('api-key|key_1', { window: 60, max: 100 }, new Date())
 */
export function createRateLimitStore(config: RateLimiterConfig): RateLimitStore {
  const kind = config.options?.storage ?? (config.secondaryStorage ? 'secondary-storage' : 'memory')
  switch (kind) {
    case 'memory':
      return memoryRateLimitStore()
    case 'database':
      if (!config.adapter) {
        throw new Error("Gatehouse rate limit: rateLimit.storage is 'database' but no database adapter is configured")
      }
      return databaseRateLimitStore(config.adapter)
    case 'secondary-storage':
      if (!config.secondaryStorage) {
        throw new Error(
          "Gatehouse rate limit: rateLimit.storage is 'secondary-storage' but no secondaryStorage is configured",
        )
      }
      return secondaryRateLimitStore(config.secondaryStorage)
    default:
      throw new Error(`Gatehouse rate limit: unknown rateLimit.storage '${String(kind)}'`)
  }
}
