/**
 * @module
 * An in-process `SecondaryStorage` (docs/secondary-storage.md) for tests and single-process
 * servers. Entries live in one `Map`, whose insertion order doubles as the
 * age order for eviction. Memory stays bounded two ways: expired entries are
 * dropped when read and swept in bulk every few hundred writes, and a
 * `maxEntries` cap evicts the oldest entries, because a store keyed by
 * attacker-controlled values (IP addresses, session tokens) would otherwise
 * grow without limit.
 *
 * Every method runs synchronously before its promise settles, so an
 * `increment` is atomic within the process: 50 concurrent calls see 1..50.
 */
import { systemClock, type Clock } from '../crypto/clock.js'
import type { SecondaryStorage } from './types.js'

export interface MemoryStorageOptions {
  /** Source of the current time; pass a `manualClock()` to move expiry by hand in tests. */
  clock?: Clock
  /** Upper bound on stored entries; past it the least recently written entries go first. Default 100 000. */
  maxEntries?: number
}

export interface MemoryStorage extends SecondaryStorage {
  increment(key: string, ttlSeconds: number): Promise<{ value: number; ttlSeconds: number }>
  /** Entries held right now, including expired ones not yet swept. For diagnostics and tests. */
  size(): number
}

interface Entry {
  value: string
  /** Epoch milliseconds, or null for an entry that never expires. */
  expiresAt: number | null
}

const DEFAULT_MAX_ENTRIES = 100_000
/** A full sweep costs O(entries); running it once per this many writes keeps each write O(1) amortised. */
const SWEEP_INTERVAL = 500

/**
 * Creates an in-memory secondary storage.
 *
 * @example
 * const auth = createAuth({ database, secondaryStorage: memoryStorage() })
 *
 * @example
 * const clock = manualClock()
 * const storage = memoryStorage({ clock })
 * await storage.set('k', 'v', 60)
 * clock.advance(60_000)
 * await storage.get('k') // null
 */
export function memoryStorage(options: MemoryStorageOptions = {}): MemoryStorage {
  const clock = options.clock ?? systemClock
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES
  if (!(maxEntries >= 1)) throw new RangeError('memoryStorage: maxEntries must be at least 1')

  const entries = new Map<string, Entry>()
  let writesSinceSweep = 0

  function isExpired(entry: Entry, now: number): boolean {
    return entry.expiresAt !== null && entry.expiresAt <= now
  }

  function live(key: string, now: number): Entry | undefined {
    const entry = entries.get(key)
    if (entry === undefined) return undefined
    if (isExpired(entry, now)) {
      entries.delete(key)
      return undefined
    }
    return entry
  }

  function sweep(now: number): void {
    for (const [key, entry] of entries) {
      if (isExpired(entry, now)) entries.delete(key)
    }
  }

  /** Stores `entry` as the newest one, then enforces the sweep schedule and the cap. */
  function write(key: string, entry: Entry, now: number): void {
    // Re-inserting moves the key to the end of the Map's order: eviction takes the least recently written.
    entries.delete(key)
    entries.set(key, entry)
    writesSinceSweep += 1
    if (writesSinceSweep >= SWEEP_INTERVAL) {
      writesSinceSweep = 0
      sweep(now)
    }
    if (entries.size > maxEntries) {
      // Dead entries go before live ones, so a flood of short-lived keys does not push out long-lived ones.
      sweep(now)
      writesSinceSweep = 0
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break
        entries.delete(oldest)
      }
    }
  }

  return {
    async get(key) {
      return live(key, clock.now().getTime())?.value ?? null
    },

    async set(key, value, ttlSeconds) {
      const now = clock.now().getTime()
      if (Number.isNaN(ttlSeconds)) throw new RangeError('set: ttlSeconds must be a number')
      if (ttlSeconds !== undefined && ttlSeconds <= 0) {
        // A lifetime already over means the value must not be readable; Redis would refuse the command.
        entries.delete(key)
        return
      }
      write(key, { value, expiresAt: ttlSeconds === undefined ? null : now + ttlSeconds * 1000 }, now)
    },

    async delete(key) {
      entries.delete(key)
    },

    async increment(key, ttlSeconds) {
      if (!(ttlSeconds > 0)) throw new RangeError('increment: ttlSeconds must be positive')
      const now = clock.now().getTime()
      const current = live(key, now)
      let value = 1
      if (current !== undefined) {
        value = parseCounter(current.value, key) + 1
      }
      // The expiry is set once, when the counter is created (or if it had none): a fixed window.
      const expiresAt = current?.expiresAt ?? now + ttlSeconds * 1000
      write(key, { value: String(value), expiresAt }, now)
      return { value, ttlSeconds: Math.max(1, Math.ceil((expiresAt - now) / 1000)) }
    },

    size() {
      return entries.size
    },
  }
}

/** Mirrors Redis INCR, which refuses to count on a value that is not an integer. */
function parseCounter(value: string, key: string): number {
  if (!/^-?\d+$/.test(value)) throw new TypeError(`increment: the value at "${key}" is not an integer`)
  return Number(value)
}
