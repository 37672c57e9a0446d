import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestBackend, type TestBackend } from '../../test/kysely-backends.js'
import { runRateLimitStoreSuite } from '../../test/rate-limit-store-suite.js'
import { manualClock } from '../crypto/clock.js'
import type { Adapter, Row } from '../db/adapter.js'
import { sqliteAdapter } from '../db/kysely/sqlite.js'
import { memoryAdapter } from '../db/memory/memory-adapter.js'
import { coreSchema } from '../db/schema.js'
import { createRateLimiter } from './rate-limiter.js'
import { databaseRateLimitStore } from './storage-database.js'

const memoryClock = manualClock()
runRateLimitStoreSuite({
  name: 'database (memory adapter)',
  clock: memoryClock,
  createStore: async () => databaseRateLimitStore(await memoryAdapter()({ schema: coreSchema })),
})

let sqlite: Adapter | undefined
const sqliteClock = manualClock()
runRateLimitStoreSuite({
  name: 'database (sqlite :memory:)',
  clock: sqliteClock,
  createStore: async () => {
    sqlite = await sqliteAdapter(':memory:')({ schema: coreSchema })
    await sqlite.migrate?.()
    return databaseRateLimitStore(sqlite)
  },
  teardown: () => sqlite?.close?.(),
})

describe('databaseRateLimitStore', () => {
  const rule = { window: 10, max: 3 }

  it('stores one row per key: the count and the window start in epoch ms', async () => {
    const clock = manualClock(new Date('2026-03-01T12:00:00.000Z'))
    const adapter = await memoryAdapter()({ schema: coreSchema })
    const store = databaseRateLimitStore(adapter)
    const key = '203.0.113.20|/sign-in/email'
    await Promise.all(Array.from({ length: 10 }, () => store.hit(key, rule, clock.now())))
    const rows = await adapter.findMany({ model: 'rateLimit' })
    expect(rows).toEqual([
      { id: expect.any(String), key, count: 3, lastRequest: Date.parse('2026-03-01T12:00:00.000Z') },
    ])
    clock.advance(12_000)
    await store.hit(key, rule, clock.now())
    // The row is reused for the new window, not duplicated.
    expect(await adapter.findMany({ model: 'rateLimit' })).toEqual([
      { id: rows[0]?.id, key, count: 1, lastRequest: Date.parse('2026-03-01T12:00:12.000Z') },
    ])
  })

  it('reads 64-bit columns that a driver returns as strings', async () => {
    const adapter = await memoryAdapter()({ schema: coreSchema })
    const stringly: Adapter = {
      ...adapter,
      findOne: async <T extends Row = Row>(args: Parameters<Adapter['findOne']>[0]) => {
        const row = await adapter.findOne<Row>(args)
        return row === null ? null : stringify<T>(row)
      },
    }
    const clock = manualClock()
    const store = databaseRateLimitStore(stringly)
    const results = []
    for (let index = 0; index < 4; index += 1) results.push((await store.hit('k', rule, clock.now())).allowed)
    expect(results).toEqual([true, true, true, false])
  })

  it('refuses, rather than loops, when every compare-and-set keeps failing', async () => {
    const adapter = await memoryAdapter()({ schema: coreSchema })
    let writes = 0
    const contended: Adapter = {
      ...adapter,
      updateMany: async () => {
        writes += 1
        return 0
      },
    }
    const clock = manualClock()
    await databaseRateLimitStore(adapter).hit('k', rule, clock.now())
    expect(await databaseRateLimitStore(contended).hit('k', rule, clock.now())).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
    })
    expect(writes).toBe(2 * (rule.max + 2))
  })

  it('rethrows database errors other than a unique violation', async () => {
    const adapter = await memoryAdapter()({ schema: coreSchema })
    const broken: Adapter = {
      ...adapter,
      create: async () => {
        throw new Error('connection reset')
      },
    }
    await expect(databaseRateLimitStore(broken).hit('k', rule, new Date())).rejects.toThrow('connection reset')
  })

  it('refuses a schema without the rateLimit model', async () => {
    const { rateLimit: _omitted, ...withoutRateLimit } = coreSchema
    const adapter = await memoryAdapter()({ schema: withoutRateLimit })
    expect(() => databaseRateLimitStore(adapter)).toThrow(/no rateLimit model/)
  })
})

describe("createRateLimiter with storage 'database'", () => {
  let backend: TestBackend | undefined
  let adapter: Adapter | undefined

  beforeAll(async () => {
    backend = await createTestBackend('sqlite')
    adapter = await backend.factory({ schema: coreSchema })
    await adapter.migrate?.()
  })
  afterAll(async () => {
    await adapter?.close?.()
    await backend?.drop()
  })

  it('lets exactly 3 of 50 parallel sign-in attempts through, counted in the rateLimit table (sqlite file)', async () => {
    if (!adapter || !backend) throw new Error('backend not ready')
    const limiter = createRateLimiter({ clock: manualClock(), adapter, options: { storage: 'database' } })
    const results = await Promise.all(
      Array.from({ length: 50 }, () => limiter.check({ path: '/sign-in/email', ip: '203.0.113.21' })),
    )
    expect(results.filter((result) => result.allowed)).toHaveLength(3)
    const rows = await backend.db.selectFrom('rateLimit').selectAll().execute()
    expect(rows.map((row) => [row.key, Number(row.count)])).toEqual([['203.0.113.21|/sign-in/email', 3]])
  })
})

function stringify<T extends Row>(row: Row): T {
  const copy: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(row)) copy[field] = typeof value === 'number' ? String(value) : value
  // The row keeps its shape; only number columns became strings, as some drivers return them.
  return copy as T
}
