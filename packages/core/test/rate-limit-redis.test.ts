import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemClock } from '../src/crypto/clock.js'
import { createRateLimiter } from '../src/rate-limit/rate-limiter.js'
import { secondaryRateLimitStore } from '../src/rate-limit/storage-secondary.js'
import { redisStorage, type RedisStorage } from '../src/storage/redis.js'
import { runRateLimitStoreSuite } from './rate-limit-store-suite.js'
import { services } from './services.js'

/** Its own key prefix, so parallel test files sharing the Redis server do not count each other's requests. */
const prefix = `gatehouse-test:${randomUUID()}:`

describe.skipIf(!services.redis)('rate limiting on Redis', () => {
  let storage: RedisStorage
  let admin: Redis

  beforeAll(() => {
    storage = redisStorage({ url: services.redis, keyPrefix: prefix })
    admin = new Redis(services.redis ?? '')
  })
  afterAll(async () => {
    const keys = await admin.keys(`${prefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    expect(await admin.keys(`${prefix}*`)).toEqual([])
    await Promise.all([storage.close(), admin.quit()])
  })

  runRateLimitStoreSuite({ name: 'secondary storage (redis)', createStore: () => secondaryRateLimitStore(storage) })

  it('lets exactly 3 of 50 parallel sign-in attempts through the limiter', async () => {
    const limiter = createRateLimiter({ clock: systemClock, secondaryStorage: storage })
    const results = await Promise.all(
      Array.from({ length: 50 }, () => limiter.check({ path: '/sign-in/email', ip: '192.0.2.50' })),
    )
    expect(results.filter((result) => result.allowed)).toHaveLength(3)
    const refused = results.find((result) => !result.allowed)
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) })
    expect(await admin.get(`${prefix}rate-limit:192.0.2.50|/sign-in/email`)).toBe('50')
    const pttl = await admin.pttl(`${prefix}rate-limit:192.0.2.50|/sign-in/email`)
    expect(pttl).toBeGreaterThan(8000)
    expect(pttl).toBeLessThanOrEqual(10_000)
  })

  it('shares counters between two limiters, as between two server processes', async () => {
    const other = redisStorage({ url: services.redis, keyPrefix: prefix })
    try {
      const first = createRateLimiter({ clock: systemClock, secondaryStorage: storage })
      const second = createRateLimiter({ clock: systemClock, secondaryStorage: other })
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (index % 2 === 0 ? first : second).check({ path: '/sign-up/email', ip: '192.0.2.51' }),
        ),
      )
      expect(results.filter((result) => result.allowed)).toHaveLength(3)
    } finally {
      await other.close()
    }
  })
})
