/**
 * Transient faults on SQLite and in the HTTP layer (docs/core.md#transient-faults):
 * another process holding the write lock past the busy timeout answers 503,
 * rolls the sign-up back, and the next request works; a non-transient error
 * still answers a bare 500.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { createAuth } from '../src/auth/create-auth.js'
import { sqliteAdapter } from '../src/db/kysely/sqlite.js'
import { memoryAdapter } from '../src/db/memory/index.js'
import { runMigrations } from '../src/migrations/run-migrations.js'
import { faultAuth, signUp } from './fault-support.js'
import { BASE, SECRET } from './helpers.js'

describe('SQLite busy', () => {
  const directory = mkdtempSync(join(tmpdir(), 'gatehouse-fault-sqlite-'))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it('a write lock held by another connection past the busy timeout answers 503; the next request works', async () => {
    const file = join(directory, 'auth.db')
    const auth = createAuth({
      baseURL: BASE,
      secret: SECRET,
      logger: { disabled: true },
      database: sqliteAdapter(file, { busyTimeout: 50 }),
      emailAndPassword: { enabled: true },
    })
    await runMigrations(auth)
    // Another process (here: another connection) in the middle of a long write.
    const other = new Database(file)
    other.exec('begin immediate')
    try {
      const response = await auth.handler(signUp('busy@example.com'))
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('3')
      expect(await response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    } finally {
      other.exec('rollback')
    }
    expect(other.prepare('select count(*) as n from user where email = ?').get('busy@example.com')).toEqual({ n: 0 })
    expect((await auth.handler(signUp('busy@example.com'))).status).toBe(200)
    expect(other.prepare('select count(*) as n from account').get()).toEqual({ n: 1 })
    other.close()
    await auth.close()
  })
})

describe('error mapping', () => {
  it('an error that is not transient is still a bare 500, logged as an error', async () => {
    const { auth, logs } = faultAuth({
      database: memoryAdapter(),
      databaseHooks: { user: { create: { before: () => { throw new TypeError('a bug') } } } },
    })
    const response = await auth.handler(signUp('bug@example.com'))
    expect(response.status).toBe(500)
    expect(response.headers.get('retry-after')).toBeNull()
    expect(await response.json()).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' })
    expect(logs.lines.some((line) => line.startsWith('error unhandled error in endpoint'))).toBe(true)
  })
})
