/**
 * @module
 * The secondary storage conformance suite: what every `SecondaryStorage`
 * backend must do for sessions and rate limits to be safe on it (docs/secondary-storage.md).
 * A storage author registers it inside a vitest file; tests that do not apply
 * are skipped by name, with the reason printed in the test title.
 *
 * Expiry is checked with a manual clock when the storage reads one (the
 * in-memory store); otherwise the suite waits in real time, in two tests only,
 * using the shortest lifetime Redis accepts (one second).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { SecondaryStorage } from '../storage/types.js'

export const secondaryStorageConformanceTests = [
  'get returns what set stored',
  'get of a missing key returns null',
  'set overwrites an earlier value',
  'delete removes a key and ignores a missing one',
  'entries expire after their ttl',
  'increment starts at 1 and counts',
  '50 concurrent increments return 1..50 once each',
  'increment does not extend the ttl',
  'delete resets a counter',
  'unicode values round-trip',
  'large values round-trip',
] as const

export type SecondaryStorageConformanceTest = (typeof secondaryStorageConformanceTests)[number]

export interface SecondaryStorageConformanceOptions<S extends SecondaryStorage = SecondaryStorage> {
  /** Shown as the describe block's title. */
  name: string
  /** Called once before the suite; every test uses its own keys. */
  createStorage: () => S | Promise<S>
  /** Called before each test, to clear what earlier runs left behind. */
  reset?: (storage: S) => void | Promise<void>
  /** Called once after the suite: close connections here. */
  teardown?: (storage: S) => void | Promise<void>
  /** The manual clock the storage reads; without it the expiry tests wait in real time. */
  clock?: { advance(ms: number): void }
  /** Tests that do not apply to this backend, with the reason (for instance a store without `increment`). */
  skip?: ReadonlyArray<{ reason: string; tests: readonly SecondaryStorageConformanceTest[] }>
}

/** A lifetime long enough that no test run outlives it. */
const LONG_TTL = 3600

/**
 * Registers the conformance tests for one storage backend.
 *
 * @example
 * import { runSecondaryStorageConformance } from '@gatehouse/core/testing'
 *
 * const clock = manualClock()
 * runSecondaryStorageConformance({ name: 'memory', clock, createStorage: () => memoryStorage({ clock }) })
 */
export function runSecondaryStorageConformance<S extends SecondaryStorage>(
  options: SecondaryStorageConformanceOptions<S>,
): void {
  const skipped = new Map<string, string>()
  for (const { reason, tests } of options.skip ?? []) {
    for (const test of tests) skipped.set(test, reason)
  }

  describe(`secondary storage conformance: ${options.name}`, () => {
    let storage: S | undefined

    beforeAll(async () => {
      storage = await options.createStorage()
    })
    beforeEach(async () => {
      await options.reset?.(current())
    })
    afterAll(async () => {
      if (storage) await options.teardown?.(storage)
    })

    function current(): S {
      if (!storage) throw new Error('createStorage did not run')
      return storage
    }

    function counter(): Required<SecondaryStorage>['increment'] {
      const s = current()
      if (!s.increment) {
        throw new Error(`${options.name} has no increment(); skip the counter tests with a reason if that is intended`)
      }
      return s.increment.bind(s)
    }

    /** Moves the manual clock, or waits for real when the storage keeps its own time. */
    async function elapse(ms: number): Promise<void> {
      if (options.clock) options.clock.advance(ms)
      else await new Promise((resolve) => setTimeout(resolve, ms))
    }

    function define(name: SecondaryStorageConformanceTest, fn: () => Promise<void>): void {
      const reason = skipped.get(name)
      if (reason === undefined) it(name, fn)
      else it.skip(`${name} (skipped: ${reason})`, fn)
    }

    define('get returns what set stored', async () => {
      const s = current()
      await s.set('conformance:round-trip', 'value-1')
      await s.set('conformance:round-trip-ttl', '{"id":"s1","n":2}', LONG_TTL)
      expect(await s.get('conformance:round-trip')).toBe('value-1')
      expect(await s.get('conformance:round-trip-ttl')).toBe('{"id":"s1","n":2}')
    })

    define('get of a missing key returns null', async () => {
      expect(await current().get('conformance:never-written')).toBeNull()
    })

    define('set overwrites an earlier value', async () => {
      const s = current()
      await s.set('conformance:overwrite', 'first', LONG_TTL)
      await s.set('conformance:overwrite', 'second', LONG_TTL)
      expect(await s.get('conformance:overwrite')).toBe('second')
    })

    define('delete removes a key and ignores a missing one', async () => {
      const s = current()
      await s.set('conformance:delete', 'gone soon')
      await s.delete('conformance:delete')
      expect(await s.get('conformance:delete')).toBeNull()
      await expect(s.delete('conformance:delete-missing')).resolves.toBeUndefined()
    })

    define('entries expire after their ttl', async () => {
      const s = current()
      const increment = counter()
      await s.set('conformance:ttl', 'short-lived', 1)
      await s.set('conformance:ttl-forever', 'kept')
      // A later set without a ttl replaces the earlier lifetime, as Redis SET does.
      await s.set('conformance:ttl-cleared', 'first', 1)
      await s.set('conformance:ttl-cleared', 'second')
      expect((await increment('conformance:ttl-counter', 1)).value).toBe(1)
      expect((await increment('conformance:ttl-counter', 1)).value).toBe(2)
      if (options.clock) {
        await elapse(900)
        expect(await s.get('conformance:ttl')).toBe('short-lived')
        await elapse(100)
      } else {
        expect(await s.get('conformance:ttl')).toBe('short-lived')
        await elapse(1250)
      }
      expect(await s.get('conformance:ttl')).toBeNull()
      expect(await s.get('conformance:ttl-forever')).toBe('kept')
      expect(await s.get('conformance:ttl-cleared')).toBe('second')
      // An expired counter starts a new window at 1.
      expect(await increment('conformance:ttl-counter', 1)).toEqual({ value: 1, ttlSeconds: 1 })
    })

    define('increment starts at 1 and counts', async () => {
      const increment = counter()
      expect(await increment('conformance:count', 60)).toEqual({ value: 1, ttlSeconds: 60 })
      expect((await increment('conformance:count', 60)).value).toBe(2)
      expect((await increment('conformance:count', 60)).value).toBe(3)
      expect((await increment('conformance:count-other', 60)).value).toBe(1)
    })

    define('50 concurrent increments return 1..50 once each', async () => {
      const increment = counter()
      const results = await Promise.all(Array.from({ length: 50 }, () => increment('conformance:concurrent', 60)))
      const values = results.map((result) => result.value).sort((a, b) => a - b)
      expect(values).toEqual(Array.from({ length: 50 }, (_, index) => index + 1))
    })

    define('increment does not extend the ttl', async () => {
      const increment = counter()
      if (options.clock) {
        expect(await increment('conformance:window', 10)).toEqual({ value: 1, ttlSeconds: 10 })
        await elapse(6000)
        expect(await increment('conformance:window', 10)).toEqual({ value: 2, ttlSeconds: 4 })
        await elapse(4000)
        expect(await increment('conformance:window', 10)).toEqual({ value: 1, ttlSeconds: 10 })
      } else {
        expect(await increment('conformance:window', 2)).toEqual({ value: 1, ttlSeconds: 2 })
        await elapse(1100)
        // Had the second increment restarted the window, about 2 s would remain instead of under 1 s.
        expect(await increment('conformance:window', 2)).toEqual({ value: 2, ttlSeconds: 1 })
      }
    })

    define('delete resets a counter', async () => {
      const s = current()
      const increment = counter()
      await increment('conformance:reset', 60)
      await increment('conformance:reset', 60)
      await s.delete('conformance:reset')
      expect((await increment('conformance:reset', 60)).value).toBe(1)
    })

    define('unicode values round-trip', async () => {
      const s = current()
      const value = 'Zoë 日本語 🔐👩🏽‍💻 e\u0301 "quoted" \\ \n\t\u2028 end'
      await s.set('conformance:unicode', value, LONG_TTL)
      expect(await s.get('conformance:unicode')).toBe(value)
      await s.set('conformance:ключ-🔑', 'unicode key')
      expect(await s.get('conformance:ключ-🔑')).toBe('unicode key')
    })

    define('large values round-trip', async () => {
      const s = current()
      // Whole repetitions only, so no surrogate pair is cut in half.
      const chunk = 'session-payload-ä€😀:'
      const value = chunk.repeat(Math.ceil((100 * 1024) / chunk.length))
      expect(value.length).toBeGreaterThanOrEqual(100 * 1024)
      await s.set('conformance:large', value, LONG_TTL)
      const read = await s.get('conformance:large')
      expect(read?.length).toBe(value.length)
      expect(read).toBe(value)
    })
  })
}
