/**
 * `auth.close()` (docs/core.md#shutting-down) lets the work in flight finish
 * before it closes the database: a sign-up whose password is still being
 * hashed when close() is called completes and is stored, and close()
 * resolves only afterwards. A stuck request does not hold it past `timeoutMs`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { createAuth } from '../src/auth/create-auth.js'
import { sqliteAdapter } from '../src/db/kysely/sqlite.js'
import { runMigrations } from '../src/migrations/run-migrations.js'
import { BASE, SECRET, request } from './helpers.js'

describe('auth.close()', () => {
  const directory = mkdtempSync(join(tmpdir(), 'gatehouse-fault-shutdown-'))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it('waits for an in-flight sign-up (hashing included) before closing the database', async () => {
    const file = join(directory, 'auth.db')
    let release: () => void = () => undefined
    const hashing = new Promise<void>((resolve) => (release = resolve))
    let started: () => void = () => undefined
    const inHash = new Promise<void>((resolve) => (started = resolve))
    const auth = createAuth({
      baseURL: BASE,
      secret: SECRET,
      logger: { disabled: true },
      database: sqliteAdapter(file),
      emailAndPassword: {
        enabled: true,
        // A slow hash, held open by the test, so close() is called while the request is mid-way.
        password: {
          hash: async (plain) => {
            // Start-up hashes a dummy password too (equal timing for unknown users): only the sign-up's is held.
            if (plain !== 'a long passphrase') return `fast:${plain}`
            started()
            await hashing
            return `held:${plain}`
          },
          verify: async () => true,
        },
      },
    })
    await runMigrations(auth)

    const response = auth.handler(request('/api/auth/sign-up/email', { json: { name: 'Ada', email: 'ada@example.com', password: 'a long passphrase' } }))
    await inHash
    let closed = false
    const closing = auth.close().then(() => (closed = true))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(closed).toBe(false)
    release()
    expect((await response).status).toBe(200)
    await closing
    expect(closed).toBe(true)
    const raw = new Database(file)
    expect(raw.prepare('select count(*) as n from account where password = ?').get('held:a long passphrase')).toEqual({ n: 1 })
    raw.close()
  })

  it('gives up waiting after timeoutMs', async () => {
    const auth = createAuth({
      baseURL: BASE,
      secret: SECRET,
      logger: { disabled: true },
      database: sqliteAdapter(join(directory, 'stuck.db')),
      hooks: { before: [{ matcher: () => true, handler: () => new Promise<void>(() => undefined) }] },
    })
    await runMigrations(auth)
    void auth.handler(request('/api/auth/ok'))
    await new Promise((resolve) => setTimeout(resolve, 20))
    await expect(auth.close({ timeoutMs: 100 })).resolves.toBeUndefined()
  })
})
