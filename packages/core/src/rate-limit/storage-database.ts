/**
 * @module
 * Rate-limit counters in the `rateLimit` table (docs/core.md#tables: key, count,
 * lastRequest = the window's start in epoch ms), for deployments with several
 * processes and no secondary storage. It speaks only the adapter contract, so
 * it works on every backend, and needs no transactions: every write is a
 * compare-and-set (`updateMany` whose condition repeats the count and window
 * start that were read), and a write that matched no row means another request
 * got there first, so the hit is re-evaluated from a fresh read. Two requests
 * can therefore never both turn count 2 into count 3.
 */
import { isUniqueViolation, type Adapter, type Row } from '../db/adapter.js'
import { secondsUntil, type RateLimitDecision, type RateLimitStore } from './store.js'

const MODEL = 'rateLimit'

export interface DatabaseRateLimitStoreOptions {
  /** Id for new rows; defaults to a random UUID. */
  generateId?: () => string
}

/**
 * Creates a counter store on the database.
 *
 * @example
 * const store = databaseRateLimitStore(adapter)
 * const { allowed } = await store.hit('203.0.113.7|/sign-in/email', { window: 10, max: 3 }, clock.now())
 */
export function databaseRateLimitStore(adapter: Adapter, options: DatabaseRateLimitStoreOptions = {}): RateLimitStore {
  if (!adapter.schema[MODEL]) {
    throw new Error("Gatehouse rate limit: rateLimit.storage is 'database' but the schema has no rateLimit model")
  }
  const generateId = options.generateId ?? (() => crypto.randomUUID())

  return {
    async hit(key, rule, date): Promise<RateLimitDecision> {
      const now = date.getTime()
      const windowMs = rule.window * 1000
      const opening = rule.max >= 1 ? 1 : 0
      // Each failed compare-and-set means another request wrote successfully, and a window takes at most
      // max + 1 writes (its opening and max increments); the bound only bites if windows keep rolling over.
      const attempts = 2 * (rule.max + 2)

      for (let attempt = 0; attempt < attempts; attempt += 1) {
        const row = await adapter.findOne({ model: MODEL, where: { field: 'key', value: key } })
        if (row === null) {
          try {
            await adapter.create({
              model: MODEL,
              data: { id: generateId(), key, count: opening, lastRequest: now },
            })
            return { allowed: opening === 1, retryAfterSeconds: secondsUntil(now + windowMs, now) }
          } catch (error) {
            // A parallel request created the row first: count against it instead.
            if (isUniqueViolation(error)) continue
            throw error
          }
        }

        const count = readInteger(row, 'count')
        const start = readInteger(row, 'lastRequest')
        const unchanged = [
          { field: 'key', value: key },
          { field: 'count', value: count },
          { field: 'lastRequest', value: start },
        ]

        if (now >= start + windowMs) {
          const reset = await adapter.updateMany({ model: MODEL, where: unchanged, update: { count: opening, lastRequest: now } })
          if (reset === 1) return { allowed: opening === 1, retryAfterSeconds: secondsUntil(now + windowMs, now) }
          continue
        }

        const retryAfterSeconds = secondsUntil(start + windowMs, now)
        if (count >= rule.max) return { allowed: false, retryAfterSeconds }
        const counted = await adapter.updateMany({ model: MODEL, where: unchanged, update: { count: count + 1 } })
        if (counted === 1) return { allowed: true, retryAfterSeconds }
      }

      // Fail closed: refusing one request under extreme contention is safer than letting a flood through.
      return { allowed: false, retryAfterSeconds: 1 }
    },
  }
}

/** Drivers hand 64-bit columns back as strings or bigints; both are exact for epoch milliseconds. */
function readInteger(row: Row, field: string): number {
  const value = row[field]
  const number = typeof value === 'string' || typeof value === 'bigint' ? Number(value) : value
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
    throw new Error(`Gatehouse rate limit: rateLimit.${field} is not an integer (got ${String(value)})`)
  }
  return number
}
