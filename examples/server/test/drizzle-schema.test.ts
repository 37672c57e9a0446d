/**
 * The Drizzle schema modules DATABASE_ADAPTER=drizzle serves with
 * (src/drizzle, drizzle-database.ts) are exactly what `gatehouse generate
 * --format drizzle` writes for this server's plugins, so adding a plugin or a
 * field without generating them again fails here. After such a change:
 * `npx vitest run --project example-server drizzle-schema -u`. Their
 * `relations()` serve Drizzle's relational queries both ways.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../../../packages/core/src/cli/run.js'
import * as authSchema from '../src/drizzle/auth-schema-sqlite.js'

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-example-drizzle-'))
process.env.GATEHOUSE_EXAMPLE_CLI_DB = join(dir, 'auth.db')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const config = resolve(__dirname, 'fixtures/gatehouse-config.ts')

describe('the committed Drizzle schema modules', () => {
  for (const dialect of ['postgres', 'mysql', 'sqlite'] as const) {
    it(`match gatehouse generate --format drizzle --dialect ${dialect}`, async () => {
      let out = ''
      let err = ''
      const sink = { out: (text: string) => void (out += text), err: (text: string) => void (err += text), cwd: dir }
      expect(await runCli(['generate', '--config', config, '--format', 'drizzle', '--dialect', dialect], sink)).toBe(0)
      expect(err).toBe('')
      expect(out).toContain('export const organization = ')
      await expect(out).toMatchFileSnapshot(`../src/drizzle/auth-schema-${dialect}.ts`)
    })
  }
})

describe('the generated relations()', () => {
  it('load a session with its user and a user with its sessions through db.query', async () => {
    const sink = { out: () => undefined, err: (text: string) => void expect(text).toBe(''), cwd: dir }
    expect(await runCli(['migrate', '--config', config], sink)).toBe(0)
    const client = new Database(join(dir, 'auth.db'))
    try {
      const db = drizzle(client, { schema: authSchema })
      const at = new Date('2026-01-02T03:04:05.000Z')
      await db.insert(authSchema.user).values({ id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: true, createdAt: at, updatedAt: at })
      for (const id of ['s1', 's2']) {
        await db.insert(authSchema.session).values({ id, userId: 'u1', token: `token-${id}`, expiresAt: at, createdAt: at, updatedAt: at })
      }
      const sessions = await db.query.session.findMany({ with: { user: true }, orderBy: (session, { asc }) => [asc(session.id)] })
      expect(sessions.map((session) => [session.id, session.user.email, session.user.createdAt])).toEqual([
        ['s1', 'ada@example.com', at],
        ['s2', 'ada@example.com', at],
      ])
      const ada = await db.query.user.findFirst({ where: (user, { eq }) => eq(user.id, 'u1'), with: { sessions: { columns: { id: true } } } })
      expect(ada?.sessions.map((session) => session.id).sort()).toEqual(['s1', 's2'])
    } finally {
      client.close()
    }
  })
})
