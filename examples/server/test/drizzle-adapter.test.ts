/**
 * DATABASE_ADAPTER=drizzle: the example server on `@gatehouse/drizzle`
 * (drizzle-database.ts) starts, migrates and signs up and in on SQLite, and
 * on PostgreSQL and MariaDB when their URLs are set; the rows are where the
 * generated modules say. Without the variable the server keeps core's own
 * adapter.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, readConfig } from '../src/config.js'
import type { RunningServer } from '../src/server.js'
import { caller, cookiesOf, startExample } from './harness.js'
import { freshMysql, freshPostgres, type TestDatabase } from './multi-process-harness.js'

const services = { postgres: process.env.GATEHOUSE_TEST_POSTGRES_URL, mysql: process.env.GATEHOUSE_TEST_MYSQL_URL }

describe('DATABASE_ADAPTER', () => {
  it('is kysely unless it says drizzle, and nothing else is accepted', () => {
    expect(readConfig({}).databaseAdapter).toBeUndefined()
    expect(readConfig({ DATABASE_ADAPTER: 'drizzle' }).databaseAdapter).toBe('drizzle')
    expect(() => readConfig({ DATABASE_ADAPTER: 'prisma' })).toThrow(new ConfigError('DATABASE_ADAPTER must be kysely or drizzle, got "prisma"'))
  })
})

const backends = [
  { name: 'sqlite', enabled: true, open: async (): Promise<TestDatabase | undefined> => undefined },
  { name: 'postgres', enabled: Boolean(services.postgres), open: () => freshPostgres(services.postgres ?? '') },
  { name: 'mysql', enabled: Boolean(services.mysql), open: () => freshMysql(services.mysql ?? '') },
] as const

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(`the example server with DATABASE_ADAPTER=drizzle on ${backend.name}`, () => {
    let dir = ''
    let database: TestDatabase | undefined
    let server: RunningServer
    const call = caller(() => server)

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-drizzle-'))
      database = await backend.open()
      server = await startExample(dir, { DATABASE_ADAPTER: 'drizzle', RATE_LIMIT: '0', ...(database ? { DATABASE_URL: database.url } : {}) })
    })
    afterAll(async () => {
      await server?.close()
      await database?.drop()
      await rm(dir, { recursive: true, force: true })
    })

    /** The user row as stored, read past Gatehouse. */
    async function storedUser(email: string): Promise<Record<string, unknown> | undefined> {
      if (database) {
        const placeholder = backend.name === 'postgres' ? '$1' : '?'
        return (await database.query(`select * from ${backend.name === 'postgres' ? '"user"' : '`user`'} where email = ${placeholder}`, [email]))[0]
      }
      const raw = new Database(join(dir, 'auth.db'), { readonly: true })
      try {
        return raw.prepare('select * from "user" where email = ?').get(email) as Record<string, unknown> | undefined
      } finally {
        raw.close()
      }
    }

    it('serves through the Drizzle adapter', async () => {
      expect(server.storesDescription).toContain('through drizzle')
      expect((await server.auth.$context).adapter.id).toBe(`drizzle-${backend.name}`)
    })

    it('signs up, signs in and reads the session, with the rows in the tables the modules describe', async () => {
      const email = `ada-${backend.name}@example.com`
      const signUp = await call('/api/auth/sign-up/email', { json: { name: 'Ada', email, password: 'correct horse battery' } })
      expect(signUp.status).toBe(200)
      const signIn = await call('/api/auth/sign-in/email', { json: { email, password: 'correct horse battery' } })
      expect(signIn.status).toBe(200)
      const session = await call('/api/auth/get-session', { cookie: cookiesOf(signIn) })
      expect(await session.json()).toMatchObject({ user: { email, name: 'Ada', emailVerified: false }, session: { userId: expect.any(String) } })
      const wrong = await call('/api/auth/sign-in/email', { json: { email, password: 'wrong horse battery' } })
      expect(wrong.status).toBe(401)
      expect(await storedUser(email)).toMatchObject({ email, name: 'Ada' })
    })
  })
}
