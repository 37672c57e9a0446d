/**
 * @module
 * The secondary storage as sessions see it (docs/secondary-storage.md#when-redis-is-down):
 * the store is a cache in front of the database, so its faults must never
 * fail a request. A read that fails is a miss, and the caller reads the
 * database. A write or a delete that fails is remembered, and the key is
 * deleted once the store answers again (treated as absent until then), so a
 * session revoked or changed during an outage is not served from a copy that
 * survived it. Counters (`increment`)
 * are left alone: the rate limiter decides what an outage means for them.
 */
import type { Logger } from '../endpoint/logger.js'
import type { SecondaryStorage } from './types.js'

export interface ResilientStorageOptions {
  readonly logger: Logger
  /** Deletes kept for retry; past it the oldest are dropped (and logged). Default 10 000. */
  readonly maxPendingDeletes?: number
  /** At most one warning per this many ms, so an outage does not flood the log. Default 10 000. */
  readonly warnIntervalMs?: number
}

/**
 * Wraps `storage` so that its faults degrade to the database.
 *
 * @example
 * const sessions = resilientStorage(redisStorage({ url }), { logger })
 * await sessions.get('session:abc') // null while Redis is down
 */
export function resilientStorage(storage: SecondaryStorage, options: ResilientStorageOptions): SecondaryStorage {
  const maxPending = options.maxPendingDeletes ?? 10_000
  const interval = options.warnIntervalMs ?? 10_000
  const pending = new Set<string>()
  let lastWarning = Number.NEGATIVE_INFINITY
  let suppressed = 0
  let flushing: Promise<void> | undefined

  function warn(operation: string, error: unknown): void {
    const now = performance.now()
    if (now - lastWarning < interval) {
      suppressed += 1
      return
    }
    options.logger.warn('secondary storage unavailable: sessions are read from the database', {
      operation,
      message: error instanceof Error ? error.message : String(error),
      suppressedSinceLastWarning: suppressed,
      pendingDeletes: pending.size,
    })
    lastWarning = now
    suppressed = 0
  }

  function remember(key: string): void {
    pending.delete(key)
    pending.add(key)
    if (pending.size <= maxPending) return
    const oldest = pending.values().next()
    if (!oldest.done) pending.delete(oldest.value)
    options.logger.warn('secondary storage: too many deletes waiting for the store to return; the oldest was dropped')
  }

  /** After any successful call: replay the deletes that failed, once, in the background of this call. */
  function recovered(): Promise<void> | undefined {
    if (pending.size === 0 || flushing) return flushing
    flushing = (async () => {
      for (const key of [...pending]) {
        try {
          await storage.delete(key)
          pending.delete(key)
        } catch {
          return
        }
      }
    })().finally(() => {
      flushing = undefined
    })
    return flushing
  }

  const wrapped: SecondaryStorage = {
    async get(key) {
      // A key whose delete is still pending is treated as gone: its stored copy may be a revoked session.
      if (pending.has(key)) {
        await recovered()
        if (pending.has(key)) return null
      }
      try {
        const value = await storage.get(key)
        await recovered()
        return value
      } catch (error) {
        warn('get', error)
        return null
      }
    },
    async set(key, value, ttlSeconds) {
      try {
        await storage.set(key, value, ttlSeconds)
        pending.delete(key)
        await recovered()
      } catch (error) {
        // The store may still hold an older value (a user renamed, a session extended): drop it on recovery.
        remember(key)
        warn('set', error)
      }
    },
    async delete(key) {
      try {
        await storage.delete(key)
        pending.delete(key)
        await recovered()
      } catch (error) {
        remember(key)
        warn('delete', error)
      }
    },
  }
  const increment = storage.increment?.bind(storage)
  return increment ? { ...wrapped, increment } : wrapped
}
