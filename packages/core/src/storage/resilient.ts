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
 *
 * Revocations are the exception: a failed delete remembered here is known to
 * this process only, so another process, or this one after a restart, would
 * still accept the copy once the store answers again. `deleteOrThrow` lets a
 * revocation fail instead (503, its transaction rolled back) when the copy
 * cannot be deleted (docs/sessions.md#revocation-and-racing-reads).
 */
import type { Logger } from '../logging/logger.js'
import { isStorageUnavailable, StorageUnavailableError } from './errors.js'
import type { SecondaryStorage } from './types.js'

/** The strict delete of each storage made by `resilientStorage`, which keeps the plain contract's shape. */
const strictDeletes = new WeakMap<SecondaryStorage, (key: string) => Promise<void>>()

/**
 * Deletes `key`, or throws `StorageUnavailableError` when the store cannot
 * confirm it: for a revocation, which must not report success while a copy
 * may survive in a store that other processes read. On a storage made by
 * `resilientStorage` the failed key is also remembered as any failed delete
 * is, so this process stops serving it at once; on any other storage this is
 * its own `delete`, with a failure reported as `StorageUnavailableError`.
 *
 * @example
 * await deleteOrThrow(ctx.secondaryStorage, `session:${hash}`) // throws while Redis is down: answered 503
 */
export async function deleteOrThrow(storage: SecondaryStorage, key: string): Promise<void> {
  const strict = strictDeletes.get(storage)
  if (strict) return strict(key)
  try {
    await storage.delete(key)
  } catch (error) {
    throw unavailable(error)
  }
}

function unavailable(error: unknown): Error {
  if (isStorageUnavailable(error)) return error as Error
  return new StorageUnavailableError(`secondary storage delete failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
}

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
      await tryDelete(key)
    },
  }

  /** Deletes `key`; a failure is remembered (the delete is replayed when the store answers again) and returned, not thrown. */
  async function tryDelete(key: string): Promise<{ readonly error: unknown } | null> {
    try {
      await storage.delete(key)
      pending.delete(key)
      await recovered()
      return null
    } catch (error) {
      remember(key)
      warn('delete', error)
      return { error }
    }
  }

  const increment = storage.increment?.bind(storage)
  const result = increment ? { ...wrapped, increment } : wrapped
  strictDeletes.set(result, async (key) => {
    const failure = await tryDelete(key)
    if (failure) throw unavailable(failure.error)
  })
  return result
}
