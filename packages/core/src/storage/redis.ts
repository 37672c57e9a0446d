/**
 * @module
 * `SecondaryStorage` on Redis through ioredis (`@gatehouse/core/storage/redis`).
 * Kept out of the `storage` index so that importing core never loads ioredis.
 *
 * `increment` runs as one Lua script: Redis executes a script without
 * interleaving other commands, so INCR and the expiry check cannot be split
 * by a concurrent request. That is what lets 50 parallel sign-in attempts
 * against a limit of 3 see the counter values 1..50 exactly once each.
 *
 * Faults are bounded (docs/secondary-storage.md#when-redis-is-down): while
 * the connection is down every command fails at once with
 * `StorageUnavailableError`, a command that gets no answer fails after
 * `commandTimeout`, and a connection the storage opened reconnects by itself
 * with a capped back-off, so nothing waits on Redis for long and service
 * comes back when Redis does.
 */
import { Redis, ReplyError } from 'ioredis'
import { StorageUnavailableError } from './errors.js'
import type { SecondaryStorage } from './types.js'

export interface RedisStorageOptions {
  /** An existing connection; the storage never closes it. */
  client?: Redis | undefined
  /** Connection URL used when no `client` is given (`redis://host:6379/0`); defaults to ioredis' localhost:6379. */
  url?: string | undefined
  /** Prepended to every key, to share one Redis database between applications or test files. Default ''. */
  keyPrefix?: string | undefined
  /** Milliseconds a command may wait for its answer before it fails as unavailable. Default 1000. */
  commandTimeout?: number | undefined
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
  const timeout = options.commandTimeout ?? DEFAULT_COMMAND_TIMEOUT_MS
  const connection = ownedConnectionOptions(timeout)
  const client = options.client ?? (options.url === undefined ? new Redis(connection) : new Redis(options.url, connection))
  // Connection errors surface through the commands that fail; unlistened, ioredis prints each retry to stderr.
  if (owned) client.on('error', ignore)
  const prefix = options.keyPrefix ?? ''
  const k = (key: string): string => prefix + key
  const command = <T>(run: () => Promise<T>): Promise<T> => bounded(client, timeout, run)

  return {
    async get(key) {
      return command(() => client.get(k(key)))
    },

    async set(key, value, ttlSeconds) {
      if (Number.isNaN(ttlSeconds)) throw new RangeError('set: ttlSeconds must be a number')
      await command(() => write(key, value, ttlSeconds))
    },

    async delete(key) {
      await command(() => client.del(k(key)))
    },

    async increment(key, ttlSeconds) {
      if (!(ttlSeconds > 0) || ttlSeconds === Number.POSITIVE_INFINITY) {
        throw new RangeError('increment: ttlSeconds must be a positive finite number')
      }
      const windowMs = Math.max(1, Math.round(ttlSeconds * 1000))
      const reply = await command(() => client.eval(INCREMENT_SCRIPT, 1, k(key), windowMs))
      const [value, pttl] = parseIncrementReply(reply)
      return { value, ttlSeconds: Math.max(1, Math.ceil(pttl / 1000)) }
    },

    async close() {
      if (!owned) return
      // QUIT needs a live connection; without one it would wait for a reconnect that close() must not await.
      if (client.status === 'ready') {
        await bounded(client, timeout, () => client.quit()).catch(() => client.disconnect())
      } else {
        client.disconnect()
      }
    },
  }

  async function write(key: string, value: string, ttlSeconds: number | undefined): Promise<void> {
    if (ttlSeconds === undefined) {
      await client.set(k(key), value)
      return
    }
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
  }
}

const DEFAULT_COMMAND_TIMEOUT_MS = 1000

function ignore(): void {}

/**
 * For a connection the storage opens: reconnect forever with a back-off
 * capped at 2 s, give up on a command after one reconnection attempt, and
 * time out unanswered commands, so a request never hangs on Redis.
 */
function ownedConnectionOptions(commandTimeout: number) {
  return {
    commandTimeout,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt: number) => Math.min(50 * 2 ** attempt, 2000),
  }
}

/** The connection is down and being re-established: fail now instead of queueing behind the reconnect. */
const DOWN: ReadonlySet<string> = new Set(['reconnecting', 'close', 'end'])

/**
 * Runs one command with the storage's fault rules: refused at once while the
 * connection is down, failed after `timeout` ms without an answer (also for a
 * caller's client, which may have no `commandTimeout`), and every fault
 * other than a Redis reply error (WRONGTYPE, a script error) reported as
 * `StorageUnavailableError`.
 */
async function bounded<T>(client: Redis, timeout: number, run: () => Promise<T>): Promise<T> {
  if (DOWN.has(client.status)) throw new StorageUnavailableError(`Redis is unavailable (connection ${client.status})`)
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StorageUnavailableError(`Redis did not answer within ${timeout} ms`)), timeout)
  })
  try {
    return await Promise.race([run(), expired])
  } catch (error) {
    if (error instanceof ReplyError || error instanceof StorageUnavailableError) throw error
    throw new StorageUnavailableError(`Redis is unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  } finally {
    clearTimeout(timer)
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
