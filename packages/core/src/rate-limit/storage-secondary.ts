/**
 * @module
 * Rate-limit counters in the secondary storage (Redis, usually), shared by
 * every server process. Each hit is one atomic `increment`: the storage
 * hands out the values 1, 2, 3, ... once each however many requests race,
 * and the request that drew a value above `max` is refused. The counter's
 * expiry is set when it is created and never extended, so it is a fixed
 * window that starts at the window's first request.
 */
import type { SecondaryStorage } from '../storage/types.js'
import type { RateLimitStore } from './store.js'

export interface SecondaryRateLimitStoreOptions {
  /** Namespace for the counters, apart from sessions in the same store. Default 'rate-limit:'. */
  keyPrefix?: string
}

/**
 * Creates a counter store on a secondary storage. Throws at start-up when the
 * storage cannot count atomically: a read-then-write counter would let
 * parallel requests past the limit.
 *
 * @example
 * const store = secondaryRateLimitStore(redisStorage({ url }))
 */
export function secondaryRateLimitStore(
  storage: SecondaryStorage,
  options: SecondaryRateLimitStoreOptions = {},
): RateLimitStore {
  const increment = storage.increment?.bind(storage)
  if (!increment) {
    throw new Error(
      "Gatehouse rate limit: rateLimit.storage is 'secondary-storage' but the configured secondaryStorage has no increment(key, ttlSeconds) method. " +
        "Implement it atomically (Redis INCR with an expiry), or choose rateLimit.storage 'database' or 'memory'.",
    )
  }
  const prefix = options.keyPrefix ?? 'rate-limit:'

  return {
    async hit(key, rule) {
      const { value, ttlSeconds } = await increment(prefix + key, rule.window)
      // Refused requests count too; harmless, since the expiry (and so the window) does not move.
      return { allowed: value <= rule.max, retryAfterSeconds: Math.max(1, Math.ceil(ttlSeconds)) }
    },
  }
}
