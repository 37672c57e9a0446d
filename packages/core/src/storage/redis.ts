/**
 * @module
 * `SecondaryStorage` on Redis through ioredis (`@gatehouse/core/storage/redis`).
 * Kept out of the `storage` index so that importing core never loads ioredis.
 *
 * `increment` runs as one Lua script: Redis executes a script without
 * interleaving other commands, so INCR and the expiry check cannot be split
 * by a concurrent request. That is what lets 50 parallel sign-in attempts
 * against a limit of 3 see the counter values 1..50 exactly once each.
 */
import { Redis } from 'ioredis'
import type { SecondaryStorage } from './types.js'

export interface RedisStorageOptions {
  /** An existing connection; the storage never closes it. */
  client?: Redis
  /** Connection URL used when no `client` is given (`redis://host:6379/0`); defaults to ioredis' localhost:6379. */
  url?: string
  /** Prepended to every key, to share one Redis database between applications or test files. Default ''. */
  keyPrefix?: string
}

export interface RedisStorage extends SecondaryStorage {
  increment(key: string, ttlSeconds: number): Promise<{ value: number; ttlSeconds: number }>
  /** Quits the connection if this storage opened it; leaves a caller's `client` alone. */
  close(): Promise<void>
}

/**
 * KEYS[1] counter, ARGV[1] window in ms. The expiry is set only while the key
 * has none (PTTL -1), which is right after INCR created it: later increments
 * leave the window where it is. Checking PTTL rather than "value is 1" also
 * gives an expiry to a counter that a plain SET left without one.
 */
const INCREMENT_SCRIPT = `
local value = redis.call('INCR', KEYS[1])
local pttl = redis.call('PTTL', KEYS[1])
if pttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  pttl = tonumber(ARGV[1])
end
return { value, pttl }
`

/**
 * Creates a Redis-backed secondary storage.
 *
 * @example
 * import { redisStorage } from '@gatehouse/core/storage/redis'
 * const secondaryStorage = redisStorage({ url: process.env.REDIS_URL, keyPrefix: 'auth:' })
 * const auth = createAuth({ database, secondaryStorage })
 * // on shutdown
 * await secondaryStorage.close()
 */
export function redisStorage(options: RedisStorageOptions = {}): RedisStorage {
  const owned = options.client === undefined
  const client = options.client ?? (options.url === undefined ? new Redis() : new Redis(options.url))
  const prefix = options.keyPrefix ?? ''
  const k = (key: string): string => prefix + key

  return {
    async get(key) {
      return client.get(k(key))
    },

    async set(key, value, ttlSeconds) {
      if (ttlSeconds === undefined) {
        await client.set(k(key), value)
        return
      }
      if (Number.isNaN(ttlSeconds)) throw new RangeError('set: ttlSeconds must be a number')
      if (ttlSeconds <= 0) {
        // Redis refuses a non-positive expiry; a lifetime already over means the value must be gone.
        await client.del(k(key))
        return
      }
      if (ttlSeconds === Number.POSITIVE_INFINITY) {
        await client.set(k(key), value)
        return
      }
      // PX keeps fractional lifetimes (a session's remaining seconds) exact to the millisecond.
      await client.set(k(key), value, 'PX', Math.max(1, Math.round(ttlSeconds * 1000)))
    },

    async delete(key) {
      await client.del(k(key))
    },

    async increment(key, ttlSeconds) {
      if (!(ttlSeconds > 0) || ttlSeconds === Number.POSITIVE_INFINITY) {
        throw new RangeError('increment: ttlSeconds must be a positive finite number')
      }
      const windowMs = Math.max(1, Math.round(ttlSeconds * 1000))
      const reply = await client.eval(INCREMENT_SCRIPT, 1, k(key), windowMs)
      const [value, pttl] = parseIncrementReply(reply)
      return { value, ttlSeconds: Math.max(1, Math.ceil(pttl / 1000)) }
    },

    async close() {
      if (owned) await client.quit()
    },
  }
}

function parseIncrementReply(reply: unknown): [number, number] {
  if (Array.isArray(reply) && reply.length === 2) {
    const value = Number(reply[0])
    const pttl = Number(reply[1])
    if (Number.isInteger(value) && Number.isInteger(pttl)) return [value, pttl]
  }
  throw new Error(`redisStorage: unexpected reply to the increment script: ${JSON.stringify(reply)}`)
}
