import { describe, expect, it } from 'vitest'
import { manualClock } from '../crypto/clock.js'
import { memoryStorage } from '../storage/memory-storage.js'
import type { SecondaryStorage } from '../storage/types.js'
import { createRateLimiter } from './rate-limiter.js'

const ip = '203.0.113.10'

async function parallel(count: number, check: () => Promise<{ allowed: boolean }>): Promise<number> {
  const results = await Promise.all(Array.from({ length: count }, check))
  return results.filter((result) => result.allowed).length
}

describe('createRateLimiter', () => {
  it('lets exactly 3 of 50 parallel sign-in attempts through (memory store)', async () => {
    const limiter = createRateLimiter({ clock: manualClock() })
    expect(await parallel(50, () => limiter.check({ path: '/sign-in/email', ip }))).toBe(3)
  })

  it('lets exactly 3 of 50 parallel sign-in attempts through (secondary storage)', async () => {
    const clock = manualClock()
    const limiter = createRateLimiter({ clock, secondaryStorage: memoryStorage({ clock }) })
    expect(await parallel(50, () => limiter.check({ path: '/sign-in/email', ip }))).toBe(3)
  })

  it('answers a refusal with the seconds left in the window, and opens a new window after it', async () => {
    const clock = manualClock()
    const limiter = createRateLimiter({ clock })
    const check = () => limiter.check({ path: '/forget-password', ip })
    for (let index = 0; index < 3; index += 1) expect(await check()).toEqual({ allowed: true })
    clock.advance(3200)
    expect(await check()).toEqual({ allowed: false, retryAfterSeconds: 7 })
    clock.advance(6800)
    expect(await check()).toEqual({ allowed: true })
  })

  it('applies the global default to other paths', async () => {
    const limiter = createRateLimiter({ clock: manualClock(), options: { window: 60, max: 5 } })
    expect(await parallel(20, () => limiter.check({ path: '/get-session', ip }))).toBe(5)
  })

  it('counts each IP and each path separately', async () => {
    const limiter = createRateLimiter({ clock: manualClock() })
    expect(await parallel(10, () => limiter.check({ path: '/sign-in/email', ip }))).toBe(3)
    expect(await parallel(10, () => limiter.check({ path: '/sign-in/email', ip: '203.0.113.11' }))).toBe(3)
    expect(await parallel(10, () => limiter.check({ path: '/sign-up/email', ip }))).toBe(3)
    // Paths under one wildcard rule are still separate counters.
    expect(await parallel(10, () => limiter.check({ path: '/sign-in/social', ip }))).toBe(3)
  })

  it('does not limit a path whose custom rule is false', async () => {
    const limiter = createRateLimiter({ clock: manualClock(), options: { customRules: { '/sign-in/*': false } } })
    expect(await parallel(200, () => limiter.check({ path: '/sign-in/email', ip }))).toBe(200)
    expect(await parallel(10, () => limiter.check({ path: '/sign-up/email', ip }))).toBe(3)
  })

  it('applies custom and plugin rules', async () => {
    const limiter = createRateLimiter({
      clock: manualClock(),
      options: { customRules: { '/sign-in/email': { window: 60, max: 1 } } },
      pluginRules: [{ pathMatcher: (path) => path.startsWith('/two-factor/'), window: 60, max: 2 }],
    })
    expect(await parallel(10, () => limiter.check({ path: '/sign-in/email', ip }))).toBe(1)
    expect(await parallel(10, () => limiter.check({ path: '/two-factor/verify-totp', ip }))).toBe(2)
  })

  it('allows everything when disabled', async () => {
    const limiter = createRateLimiter({ clock: manualClock(), options: { enabled: false } })
    expect(await parallel(100, () => limiter.check({ path: '/sign-in/email', ip }))).toBe(100)
  })

  describe('storage choice', () => {
    it('keeps counters in the secondary storage when one is configured', async () => {
      const clock = manualClock()
      const storage = memoryStorage({ clock })
      const limiter = createRateLimiter({ clock, secondaryStorage: storage })
      await limiter.check({ path: '/sign-in/email', ip })
      await limiter.check({ path: '/sign-in/email', ip })
      expect(await storage.get(`rate-limit:${ip}|/sign-in/email`)).toBe('2')
    })

    it("keeps counters in memory when storage is 'memory', even with a secondary storage", async () => {
      const clock = manualClock()
      const storage = memoryStorage({ clock })
      const limiter = createRateLimiter({ clock, secondaryStorage: storage, options: { storage: 'memory' } })
      expect(await parallel(10, () => limiter.check({ path: '/sign-in/email', ip }))).toBe(3)
      expect(storage.size()).toBe(0)
    })
  })

  describe('configuration errors at start-up', () => {
    const clock = manualClock()

    it('rejects a secondary storage without increment', () => {
      const storage: SecondaryStorage = { get: async () => null, set: async () => undefined, delete: async () => undefined }
      expect(() => createRateLimiter({ clock, secondaryStorage: storage })).toThrow(/no increment/)
    })

    it("rejects 'secondary-storage' without a secondary storage", () => {
      expect(() => createRateLimiter({ clock, options: { storage: 'secondary-storage' } })).toThrow(
        /no secondaryStorage is configured/,
      )
    })

    it("rejects 'database' without an adapter", () => {
      expect(() => createRateLimiter({ clock, options: { storage: 'database' } })).toThrow(/no database adapter/)
    })

    it('rejects invalid global, custom and plugin rules', () => {
      expect(() => createRateLimiter({ clock, options: { window: 0 } })).toThrow(/rateLimit window/)
      expect(() =>
        createRateLimiter({ clock, options: { customRules: { '/x': { window: 10, max: -1 } } } }),
      ).toThrow(/customRules\['\/x'\] max/)
      expect(() =>
        createRateLimiter({ clock, pluginRules: [{ pathMatcher: () => true, window: Number.NaN, max: 1 }] }),
      ).toThrow(/plugin rule window/)
    })
  })
})
