import { describe, expect, it } from 'vitest'
import { runRateLimitStoreSuite } from '../../test/rate-limit-store-suite.js'
import { manualClock } from '../crypto/clock.js'
import { memoryStorage } from '../storage/memory-storage.js'
import type { SecondaryStorage } from '../storage/types.js'
import { secondaryRateLimitStore } from './storage-secondary.js'

const clock = manualClock()
runRateLimitStoreSuite({
  name: 'secondary storage (memory)',
  clock,
  createStore: () => secondaryRateLimitStore(memoryStorage({ clock })),
})

describe('secondaryRateLimitStore', () => {
  it('keeps its counters under the rate-limit prefix', async () => {
    const storage = memoryStorage()
    const store = secondaryRateLimitStore(storage)
    await store.hit('203.0.113.9|/sign-in/email', { window: 10, max: 3 }, new Date())
    await store.hit('203.0.113.9|/sign-in/email', { window: 10, max: 3 }, new Date())
    expect(await storage.get('rate-limit:203.0.113.9|/sign-in/email')).toBe('2')
    expect(await storage.get('203.0.113.9|/sign-in/email')).toBeNull()
  })

  it('refuses a storage that cannot count atomically', () => {
    const storage: SecondaryStorage = {
      get: async () => null,
      set: async () => undefined,
      delete: async () => undefined,
    }
    expect(() => secondaryRateLimitStore(storage)).toThrow(/no increment\(key, ttlSeconds\) method/)
  })
})
