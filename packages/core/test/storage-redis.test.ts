import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisStorage } from '../src/storage/redis.js'
import { runSecondaryStorageConformance } from '../src/testing/storage-conformance.js'
import { services } from './services.js'

/** Test files run in parallel against one Redis: each keeps to its own prefix and removes it afterwards. */
const prefix = `gatehouse-test:${randomUUID()}:`

async function deletePrefixed(client: Redis, pattern: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500)
    cursor = next
    if (keys.length > 0) await client.del(...keys)
  } while (cursor !== '0')
}

describe.skipIf(!services.redis)('redisStorage', () => {
  let admin: Redis

  beforeAll(() => {
    admin = new Redis(services.redis ?? '')
  })
  afterAll(async () => {
    await deletePrefixed(admin, `${prefix}*`)
    expect(await admin.keys(`${prefix}*`)).toEqual([])
    await admin.quit()
  })

  runSecondaryStorageConformance({
    name: 'redis',
    createStorage: () => redisStorage({ url: services.redis, keyPrefix: `${prefix}conformance:` }),
    reset: () => deletePrefixed(admin, `${prefix}conformance:*`),
    teardown: (storage) => storage.close(),
  })

  describe('redis specifics', () => {
    it('writes under the key prefix with the requested expiry', async () => {
      const storage = redisStorage({ client: admin, keyPrefix: `${prefix}specifics:` })
      await storage.set('session:abc', 'payload', 90)
      expect(await admin.get(`${prefix}specifics:session:abc`)).toBe('payload')
      const pttl = await admin.pttl(`${prefix}specifics:session:abc`)
      expect(pttl).toBeGreaterThan(88_000)
      expect(pttl).toBeLessThanOrEqual(90_000)
      await storage.set('session:abc', 'payload')
      expect(await admin.pttl(`${prefix}specifics:session:abc`)).toBe(-1)
    })

    it('gives a counter left without expiry a window on its next increment', async () => {
      const storage = redisStorage({ client: admin, keyPrefix: `${prefix}specifics:` })
      await admin.set(`${prefix}specifics:counter`, '7')
      expect(await storage.increment('counter', 30)).toEqual({ value: 8, ttlSeconds: 30 })
      expect(await admin.pttl(`${prefix}specifics:counter`)).toBeGreaterThan(28_000)
    })

    it('deletes the key when set with a lifetime already over', async () => {
      const storage = redisStorage({ client: admin, keyPrefix: `${prefix}specifics:` })
      await storage.set('over', 'v')
      await storage.set('over', 'w', 0)
      expect(await admin.exists(`${prefix}specifics:over`)).toBe(0)
    })

    it('leaves a caller-provided client open on close', async () => {
      const storage = redisStorage({ client: admin, keyPrefix: `${prefix}specifics:` })
      await storage.close()
      expect(await admin.ping()).toBe('PONG')
    })

    it('closes a connection it opened', async () => {
      const storage = redisStorage({ url: services.redis, keyPrefix: `${prefix}specifics:` })
      await storage.set('k', 'v')
      await storage.close()
      await expect(storage.get('k')).rejects.toThrow()
    })
  })
})
