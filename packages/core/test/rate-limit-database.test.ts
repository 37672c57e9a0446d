/**
 * The database rate-limit store on PostgreSQL and MariaDB, where parallel
 * requests run on separate pooled connections and really race: each backend
 * gets a fresh schema or database (random name, dropped afterwards).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { manualClock } from '../src/crypto/clock.js'
import type { Adapter } from '../src/db/adapter.js'
import { coreSchema } from '../src/db/schema.js'
import { createRateLimiter } from '../src/rate-limit/rate-limiter.js'
import { databaseRateLimitStore } from '../src/rate-limit/storage-database.js'
import { createTestBackend, type TestBackend } from './kysely-backends.js'
import { runRateLimitStoreSuite } from './rate-limit-store-suite.js'
import { services } from './services.js'

const backends = [
  { dialect: 'postgres', enabled: Boolean(services.postgres) },
  { dialect: 'mysql', enabled: Boolean(services.mysql) },
] as const

for (const { dialect, enabled } of backends) {
  describe.skipIf(!enabled)(`rate limits in the database: ${dialect}`, () => {
    let backend: TestBackend | undefined
    let adapter: Adapter | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      adapter = await backend.factory({ schema: coreSchema })
      await adapter.migrate?.()
    })
    afterAll(async () => {
      await adapter?.close?.()
      await backend?.drop()
    })

    function ready(): { adapter: Adapter; backend: TestBackend } {
      if (!adapter || !backend) throw new Error('backend not ready')
      return { adapter, backend }
    }

    const clock = manualClock()
    runRateLimitStoreSuite({ name: dialect, clock, createStore: () => databaseRateLimitStore(ready().adapter) })

    it('lets exactly 3 of 50 parallel sign-in attempts through, leaving one row with count 3', async () => {
      const limiterClock = manualClock(new Date('2026-05-01T08:00:00.000Z'))
      const limiter = createRateLimiter({ clock: limiterClock, adapter: ready().adapter, options: { storage: 'database' } })
      const results = await Promise.all(
        Array.from({ length: 50 }, () => limiter.check({ path: '/sign-in/email', ip: '192.0.2.99' })),
      )
      expect(results.filter((result) => result.allowed)).toHaveLength(3)
      const rows = await ready()
        .backend.db.selectFrom('rateLimit')
        .selectAll()
        .where('key', '=', '192.0.2.99|/sign-in/email')
        .execute()
      expect(rows.map((row) => [Number(row.count), Number(row.lastRequest)])).toEqual([
        [3, Date.parse('2026-05-01T08:00:00.000Z')],
      ])
    })

    it('shares counters between two adapters, as between two server processes', async () => {
      const other = await ready().backend.factory({ schema: coreSchema })
      try {
        const limiterClock = manualClock()
        const first = createRateLimiter({ clock: limiterClock, adapter: ready().adapter, options: { storage: 'database' } })
        const second = createRateLimiter({ clock: limiterClock, adapter: other, options: { storage: 'database' } })
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, index) =>
            (index % 2 === 0 ? first : second).check({ path: '/sign-up/email', ip: '192.0.2.100' }),
          ),
        )
        expect(results.filter((result) => result.allowed)).toHaveLength(3)
      } finally {
        await other.close?.()
      }
    })
  })
}
