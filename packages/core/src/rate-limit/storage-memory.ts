/**
 * @module
 * Rate-limit counters in process memory: the default when no secondary
 * storage is configured. `hit` reads and writes the counter without awaiting
 * in between, so JavaScript's single thread makes each hit atomic: 50 parallel
 * requests against a limit of 3 let exactly 3 through. The counters are not
 * shared between processes; a server running several processes should keep
 * them in the database or a secondary storage instead.
 */
import type { RateLimitRule } from './rules.js'
import { secondsUntil, type RateLimitDecision, type RateLimitStore } from './store.js'

export interface MemoryRateLimitStoreOptions {
  /**
   * Upper bound on counters held; past it the oldest windows are dropped.
   * Default 100 000. Keys include client IPs, which an attacker controls, so
   * the map must not grow without limit.
   */
  maxEntries?: number
}

interface Window {
  count: number
  /** Epoch ms at which the window closes: the first request's time plus the rule's window. */
  end: number
}

const DEFAULT_MAX_ENTRIES = 100_000
/** Sweeping costs O(counters); doing it once per this many hits keeps a hit O(1) amortised. */
const SWEEP_INTERVAL = 1000

/**
 * Creates an in-process counter store.
 *
 * @example
 * const store = memoryRateLimitStore()
 * await store.hit('203.0.113.7|/sign-in/email', { window: 10, max: 3 }, clock.now())
 */
export function memoryRateLimitStore(
  options: MemoryRateLimitStoreOptions = {},
): RateLimitStore & { size(): number } {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES
  if (!(maxEntries >= 1)) throw new RangeError('memoryRateLimitStore: maxEntries must be at least 1')
  const windows = new Map<string, Window>()
  let hitsSinceSweep = 0

  function sweep(now: number): void {
    for (const [key, window] of windows) {
      if (window.end <= now) windows.delete(key)
    }
  }

  function open(key: string, rule: RateLimitRule, now: number): Window {
    const window: Window = { count: 0, end: now + rule.window * 1000 }
    // Re-inserting keeps the Map ordered by window age, so eviction drops the oldest windows.
    windows.delete(key)
    windows.set(key, window)
    if (windows.size > maxEntries) {
      sweep(now)
      for (const oldest of windows.keys()) {
        if (windows.size <= maxEntries) break
        windows.delete(oldest)
      }
    }
    return window
  }

  return {
    async hit(key, rule, date): Promise<RateLimitDecision> {
      const now = date.getTime()
      hitsSinceSweep += 1
      if (hitsSinceSweep >= SWEEP_INTERVAL) {
        hitsSinceSweep = 0
        sweep(now)
      }
      const existing = windows.get(key)
      const window = existing !== undefined && existing.end > now ? existing : open(key, rule, now)
      const retryAfterSeconds = secondsUntil(window.end, now)
      if (window.count >= rule.max) return { allowed: false, retryAfterSeconds }
      window.count += 1
      return { allowed: true, retryAfterSeconds }
    },

    size() {
      return windows.size
    },
  }
}
