/**
 * `auth.api.cleanup()` (docs/core.md#cleanup) on memory, SQLite, PostgreSQL
 * and MariaDB: expired sessions, verification values (OAuth states among
 * them), ended rate-limit windows and a plugin's expired rows are deleted in
 * batches; live rows stay; two cleanups running at once delete each row once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuth } from '../src/auth/create-auth.js'
import { manualClock } from '../src/crypto/clock.js'
import type { AdapterFactory } from '../src/db/adapter.js'
import { memoryAdapter } from '../src/db/memory/index.js'
import { definePlugin } from '../src/plugins/types.js'
import { BASE, SECRET } from './helpers.js'
import { backendDialects, createTestBackend, type TestBackend } from './kysely-backends.js'

const HOUR = 3_600_000

/** A plugin with an expiring table: only `temporary` rows older than a day go. */
const audit = definePlugin({
  id: 'audit',
  schema: { auditEntry: { fields: { kind: { type: 'string' }, createdAt: { type: 'date' } } } },
  cleanup: (_ctx, now) => [
    { model: 'auditEntry', field: 'createdAt', before: new Date(now.getTime() - 24 * HOUR), where: { field: 'kind', value: 'temporary' } },
  ],
})

function makeAuth(database: AdapterFactory) {
  const clock = manualClock()
  const auth = createAuth({
    baseURL: BASE,
    secret: SECRET,
    logger: { disabled: true },
    clock,
    database,
    rateLimit: { storage: 'database', window: 60, customRules: { '/slow': { window: 600, max: 5 } } },
    plugins: [audit],
  })
  return { auth, clock }
}

type Made = ReturnType<typeof makeAuth>

/** Rows on both sides of each cut-off; returns the ids expected to survive. */
async function seed({ auth, clock }: Made) {
  const { db } = await auth.$context
  const now = clock.now().getTime()
  const at = (offset: number) => new Date(now + offset)
  const user = await db.create({ model: 'user', data: { name: 'Ada', email: `ada-${now}@example.com`, emailVerified: false } })
  const session = (token: string, expiresAt: Date) =>
    db.create({ model: 'session', data: { userId: user.id, token: `${token}-${now}`, expiresAt, ipAddress: null, userAgent: null } })
  const expiredSessions = await Promise.all([1, 2, 3, 4, 5].map((n) => session(`expired-${n}`, at(-n * HOUR))))
  const liveSessions = await Promise.all([session('live-1', at(HOUR)), session('live-2', at(24 * HOUR))])
  const verification = (identifier: string, expiresAt: Date) => db.create({ model: 'verification', data: { identifier, value: 'x', expiresAt } })
  await verification('reset-password:old', at(-1))
  await verification('oauth-state:old', at(-10 * 60_000))
  const liveVerification = await verification('oauth-state:new', at(10 * 60_000))
  // The longest window is 600 s (/slow); a counter last opened 700 s ago has ended under every rule.
  const counter = (key: string, lastRequest: number) => db.create({ model: 'rateLimit', data: { key: `${key}-${now}`, count: 1, lastRequest } })
  await counter('203.0.113.1|/sign-in/email', now - 700_000)
  await counter('203.0.113.2|/get-session', now - 3 * HOUR)
  const liveCounter = await counter('203.0.113.3|/slow', now - 500_000)
  const entry = (kind: string, createdAt: Date) => db.create({ model: 'auditEntry', data: { kind, createdAt } })
  await entry('temporary', at(-48 * HOUR))
  const keptEntries = await Promise.all([entry('temporary', at(-HOUR)), entry('permanent', at(-48 * HOUR))])
  return {
    expiredSessions: expiredSessions.length,
    live: {
      session: liveSessions.map((row) => row.id).sort(),
      verification: [liveVerification.id],
      rateLimit: [liveCounter.id],
      auditEntry: keptEntries.map((row) => row.id).sort(),
    },
  }
}

async function remaining({ auth }: Made, model: string): Promise<string[]> {
  const { adapter } = await auth.$context
  return (await adapter.findMany({ model })).map((row) => String(row.id)).sort()
}

function cleanupSuite(name: string, factory: () => Promise<{ database: AdapterFactory; drop?: () => Promise<void> }>) {
  describe(`cleanup: ${name}`, () => {
    let made: Made
    let drop: (() => Promise<void>) | undefined
    beforeAll(async () => {
      const opened = await factory()
      drop = opened.drop
      made = makeAuth(opened.database)
      await (await made.auth.$context).adapter.migrate?.()
    })
    afterAll(async () => {
      await made.auth.close()
      await drop?.()
    })

    it('deletes expired rows in batches and keeps live ones', async () => {
      const seeded = await seed(made)
      const result = await made.auth.api.cleanup({ body: { batchSize: 2 } })
      expect(result).toEqual({ deleted: { session: seeded.expiredSessions, verification: 2, rateLimit: 2, auditEntry: 1 } })
      for (const [model, ids] of Object.entries(seeded.live)) expect(await remaining(made, model)).toEqual(ids)
      expect(await made.auth.api.cleanup()).toEqual({ deleted: { session: 0, verification: 0, rateLimit: 0, auditEntry: 0 } })
    })

    it('two cleanups at once delete every expired row once between them', async () => {
      made.clock.advance(100 * HOUR)
      const seeded = await seed(made)
      const [first, second] = await Promise.all([
        made.auth.api.cleanup({ body: { batchSize: 2 } }),
        made.auth.api.cleanup({ body: { batchSize: 2 } }),
      ])
      const sessions = (first.deleted.session ?? 0) + (second.deleted.session ?? 0)
      // The previous test's live sessions have expired by now too.
      expect(sessions).toBe(seeded.expiredSessions + 2)
      expect(await remaining(made, 'session')).toEqual(seeded.live.session)
      expect(await remaining(made, 'verification')).toEqual(seeded.live.verification)
    })

    it('refuses a batch size that is not a positive integer, and is not reachable over HTTP', async () => {
      await expect(made.auth.api.cleanup({ body: { batchSize: 0 } })).rejects.toMatchObject({ status: 400 })
      const response = await made.auth.handler(new Request(`${BASE}/api/auth/cleanup`, { method: 'POST' }))
      expect(response.status).toBe(404)
    })
  })
}

cleanupSuite('memory', async () => ({ database: memoryAdapter() }))

for (const { dialect, enabled } of backendDialects) {
  if (!enabled) {
    describe.skip(`cleanup: ${dialect} (service not configured)`, () => {
      it.skip('needs the service', () => undefined)
    })
    continue
  }
  cleanupSuite(dialect, async () => {
    const backend: TestBackend = await createTestBackend(dialect)
    return { database: backend.factory, drop: () => backend.drop() }
  })
}
