/**
 * `gatehouse generate` (SQL) with `naming` (docs/adapters.md#naming-tables-and-columns):
 * the statements create the mapped tables and columns, and foreign keys and
 * index names follow them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from './run.js'

describe('gatehouse generate with naming', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-naming-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('writes plural snake_case tables, a renamed id column and the foreign keys to it', async () => {
    const config = join(dir, 'auth.ts')
    writeFileSync(
      config,
      [
        `import { createAuth } from ${JSON.stringify(resolve(__dirname, '../auth/create-auth.js'))}`,
        `import { sqliteAdapter } from ${JSON.stringify(resolve(__dirname, '../db/kysely/sqlite.js'))}`,
        'export const auth = createAuth({',
        "  baseURL: 'http://localhost:3000',",
        "  secret: 'cli-test-secret-0123456789abcdefghijkl',",
        `  database: sqliteAdapter(${JSON.stringify(join(dir, 'app.db'))}),`,
        '  logger: { disabled: true },',
        "  naming: { plural: true, casing: 'snake_case', models: { user: { tableName: 'app_users', columns: { id: 'user_id', emailVerified: 'is_verified' } } } },",
        '})',
      ].join('\n'),
    )
    const io = { out: '', err: '' }
    const sink = { out: (text: string) => void (io.out += text), err: (text: string) => void (io.err += text), cwd: dir }
    expect(await runCli(['generate', '--config', config], sink)).toBe(0)
    expect(io.out).toContain('create table "app_users" ("user_id" text not null primary key, "name" text not null, "email" text not null, "is_verified" integer not null,')
    expect(io.out).toContain('create table "sessions" ("id" text not null primary key, "user_id" text not null,')
    expect(io.out).toContain('constraint "sessions_user_id_fk" foreign key ("user_id") references "app_users" ("user_id") on delete cascade')
    expect(io.out).toContain('create table "rate_limits" ("id" text not null primary key, "key" text not null, "count" real not null, "last_request" integer not null)')
    expect(io.out).toContain('create unique index "accounts_provider_id_account_id_uniq" on "accounts" ("provider_id", "account_id")')
    expect(io.out).not.toMatch(/"user"|"emailVerified"|"userId"/)
  })
})
