/**
 * Spending a key on every backend (docs/api-key.md#remaining-uses): SQLite
 * always, PostgreSQL and MariaDB when configured. Twenty parallel requests
 * with a key that has five uses left succeed exactly five times, the rest
 * answer 429 USAGE_EXCEEDED and `remaining` ends at 0, never below. On
 * PostgreSQL and MariaDB the twenty are spread over two auth instances with
 * pools of their own, as two server processes would be; the row lock in the
 * spending transaction decides.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { request } from '../../core/test/helpers.js'
import { keyAuth, person, type KeyAuth } from './fixtures.js'

const USES = 5
const REQUESTS = 20

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`API keys on ${dialect}`, () => {
    let backend: TestBackend
    let first: KeyAuth
    let second: KeyAuth

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      first = keyAuth({ database: backend.factory })
      await runMigrations(first)
      // SQLite serves one process: its second "worker" is the same instance.
      second = dialect === 'sqlite' ? first : keyAuth({ database: backend.factory })
    }, 60_000)

    afterAll(async () => {
      await first?.close()
      if (second !== first) await second?.close()
      await backend?.drop()
    })

    it(`${REQUESTS} parallel uses of a key with ${USES} left succeed exactly ${USES} times`, async () => {
      const ada = await person(first)
      const created = await first.api.createApiKey({ body: { userId: ada.id, remaining: USES, rateLimitEnabled: false } })
      const answers = await Promise.all(
        Array.from({ length: REQUESTS }, (_, index) =>
          (index % 2 === 0 ? first : second).handler(request('/api/auth/get-session', { headers: { 'x-api-key': created.key } })),
        ),
      )
      const statuses = answers.map((answer) => answer.status)
      expect(statuses.filter((status) => status === 200)).toHaveLength(USES)
      expect(statuses.filter((status) => status === 429)).toHaveLength(REQUESTS - USES)
      const bodies = await Promise.all(answers.filter((answer) => answer.status === 429).map((answer) => answer.json()))
      expect(bodies.every((body) => body.code === 'USAGE_EXCEEDED')).toBe(true)
      const rows = await backend.db.selectFrom('apikey').select(['remaining', 'requestCount']).where('id', '=', created.id).execute()
      expect(rows).toEqual([{ remaining: 0, requestCount: USES }])
    })

    it('a key found by its hash through the unique index, and its row without the key', async () => {
      const ada = await person(first)
      const created = await first.api.createApiKey({ body: { userId: ada.id } })
      const rows = await backend.db.selectFrom('apikey').selectAll().where('id', '=', created.id).execute()
      expect(JSON.stringify(rows)).not.toContain(created.key)
      const again = await second.api.verifyApiKey({ body: { key: created.key } })
      expect(again.valid).toBe(true)
    })
  })
}
