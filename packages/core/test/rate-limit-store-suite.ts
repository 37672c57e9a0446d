/**
 * The behaviour every rate-limit counter store shares, registered once per
 * store (memory, database on each backend, secondary storage on memory and
 * Redis). With a manual clock the window is moved by hand; a store that keeps
 * its own time (Redis) is checked with a one-second window and a real wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { manualClock } from '../src/crypto/clock.js'
import type { RateLimitStore } from '../src/rate-limit/store.js'

export interface RateLimitStoreSuiteOptions {
  name: string
  createStore: () => RateLimitStore | Promise<RateLimitStore>
  /** The clock the store's time comes from; without it the window test waits in real time. */
  clock?: ReturnType<typeof manualClock>
  teardown?: () => void | Promise<void>
}

export function runRateLimitStoreSuite(options: RateLimitStoreSuiteOptions): void {
  describe(`rate-limit store: ${options.name}`, () => {
    let store: RateLimitStore | undefined
    const now = (): Date => options.clock?.now() ?? new Date()

    beforeAll(async () => {
      store = await options.createStore()
    })
    afterAll(async () => {
      await options.teardown?.()
    })

    function current(): RateLimitStore {
      if (!store) throw new Error('createStore did not run')
      return store
    }

    it('lets exactly 3 of 50 parallel requests through a limit of 3', async () => {
      const rule = { window: 10, max: 3 }
      const decisions = await Promise.all(
        Array.from({ length: 50 }, () => current().hit('198.51.100.1|/sign-in/email', rule, now())),
      )
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(3)
      for (const decision of decisions.filter((d) => !d.allowed)) {
        expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1)
        expect(decision.retryAfterSeconds).toBeLessThanOrEqual(10)
      }
      // Once the limit is reached, later requests in the window are refused too.
      expect((await current().hit('198.51.100.1|/sign-in/email', rule, now())).allowed).toBe(false)
    })

    it('counts different keys separately', async () => {
      const rule = { window: 10, max: 2 }
      const hit = (key: string) => current().hit(key, rule, now())
      expect((await hit('198.51.100.2|/a')).allowed).toBe(true)
      expect((await hit('198.51.100.2|/a')).allowed).toBe(true)
      expect((await hit('198.51.100.2|/a')).allowed).toBe(false)
      expect((await hit('198.51.100.3|/a')).allowed).toBe(true)
      expect((await hit('198.51.100.2|/b')).allowed).toBe(true)
    })

    it('refuses every request when max is 0', async () => {
      const rule = { window: 10, max: 0 }
      expect((await current().hit('198.51.100.4|/closed', rule, now())).allowed).toBe(false)
      expect((await current().hit('198.51.100.4|/closed', rule, now())).allowed).toBe(false)
    })

    const clock = options.clock
    if (clock) {
      it('tells a refused client how long the window still runs', async () => {
        const rule = { window: 10, max: 1 }
        const key = '198.51.100.5|/sign-in/email'
        expect(await current().hit(key, rule, now())).toEqual({ allowed: true, retryAfterSeconds: 10 })
        clock.advance(2500)
        expect(await current().hit(key, rule, now())).toEqual({ allowed: false, retryAfterSeconds: 8 })
        clock.advance(7400)
        expect(await current().hit(key, rule, now())).toEqual({ allowed: false, retryAfterSeconds: 1 })
      })

      it('opens a new window once the old one has elapsed, without extending it on refusals', async () => {
        const rule = { window: 10, max: 3 }
        const key = '198.51.100.6|/sign-up/email'
        const hit = () => current().hit(key, rule, now())
        for (let index = 0; index < 3; index += 1) expect((await hit()).allowed).toBe(true)
        clock.advance(5000)
        expect((await hit()).allowed).toBe(false)
        clock.advance(4999)
        expect((await hit()).allowed).toBe(false)
        clock.advance(1)
        // The window is counted from its first request, not from the last refusal.
        expect(await hit()).toEqual({ allowed: true, retryAfterSeconds: 10 })
        expect((await hit()).allowed).toBe(true)
        expect((await hit()).allowed).toBe(true)
        expect((await hit()).allowed).toBe(false)
      })

      it('lets exactly 3 of 50 parallel requests through in a fresh window too', async () => {
        const rule = { window: 10, max: 3 }
        const key = '198.51.100.7|/reset-password'
        expect((await current().hit(key, rule, now())).allowed).toBe(true)
        clock.advance(10_000)
        const decisions = await Promise.all(Array.from({ length: 50 }, () => current().hit(key, rule, now())))
        expect(decisions.filter((decision) => decision.allowed)).toHaveLength(3)
      })
    } else {
      it('opens a new window once the old one has elapsed (real time)', async () => {
        const rule = { window: 1, max: 1 }
        const key = '198.51.100.8|/sign-in/email'
        expect(await current().hit(key, rule, now())).toEqual({ allowed: true, retryAfterSeconds: 1 })
        expect(await current().hit(key, rule, now())).toEqual({ allowed: false, retryAfterSeconds: 1 })
        await new Promise((resolve) => setTimeout(resolve, 1200))
        expect((await current().hit(key, rule, now())).allowed).toBe(true)
      })
    }
  })
}
