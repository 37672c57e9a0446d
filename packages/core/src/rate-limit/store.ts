/**
 * @module
 * The one interface the rate limiter counts through, whichever backend holds
 * the counters. Every store implements a fixed window: the first request of a
 * window starts it, the window lasts `rule.window` seconds, and within it at
 * most `rule.max` requests are allowed, even when they arrive all at once.
 */
import type { RateLimitRule } from './rules.js'

export interface RateLimitDecision {
  readonly allowed: boolean
  /** Whole seconds until the window ends (at least 1); what the 429 answer's `X-Retry-After` carries. */
  readonly retryAfterSeconds: number
}

export interface RateLimitStore {
  /** Counts one request for `key` and says whether it is within `rule`. */
  hit(key: string, rule: RateLimitRule, now: Date): Promise<RateLimitDecision>
}

/**
 * Whole seconds from `now` until `windowEnd` (both epoch ms), rounded up so a
 * client that waits that long finds the window over; never below 1.
 *
 * @example
 * secondsUntil(10_000, 2_500) // 8
 */
export function secondsUntil(windowEnd: number, now: number): number {
  return Math.max(1, Math.ceil((windowEnd - now) / 1000))
}
