import { describe, expect, it } from 'vitest'
import { runRateLimitStoreSuite } from '../../test/rate-limit-store-suite.js'
import { manualClock } from '../crypto/clock.js'
import { memoryRateLimitStore } from './storage-memory.js'

const clock = manualClock()
runRateLimitStoreSuite({ name: 'memory', clock, createStore: () => memoryRateLimitStore() })

describe('memoryRateLimitStore: bounded memory', () => {
  const rule = { window: 10, max: 3 }

  it('sweeps windows that have closed', async () => {
    const clock = manualClock()
    const store = memoryRateLimitStore()
    for (let index = 0; index < 600; index += 1) await store.hit(`203.0.113.${index}|/a`, rule, clock.now())
    expect(store.size()).toBe(600)
    clock.advance(10_000)
    // The periodic sweep runs on the 1000th hit; only these 400 fresh windows survive it.
    for (let index = 0; index < 400; index += 1) await store.hit(`198.51.100.${index}|/a`, rule, clock.now())
    expect(store.size()).toBe(400)
  })

  it('drops the oldest windows past maxEntries', async () => {
    const clock = manualClock()
    const store = memoryRateLimitStore({ maxEntries: 2 })
    await store.hit('a|/x', { window: 10, max: 1 }, clock.now())
    clock.advance(1)
    await store.hit('b|/x', { window: 10, max: 1 }, clock.now())
    clock.advance(1)
    await store.hit('c|/x', { window: 10, max: 1 }, clock.now())
    expect(store.size()).toBe(2)
    // 'a' was evicted, so its limit starts over; 'c' is still counted.
    expect((await store.hit('a|/x', { window: 10, max: 1 }, clock.now())).allowed).toBe(true)
    expect((await store.hit('c|/x', { window: 10, max: 1 }, clock.now())).allowed).toBe(false)
  })

  it('rejects a cap below one', () => {
    expect(() => memoryRateLimitStore({ maxEntries: 0 })).toThrow(RangeError)
  })
})
