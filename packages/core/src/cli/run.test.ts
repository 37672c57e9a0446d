import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from './run.js'

const fixture = resolve(__dirname, '../../test/fixtures/cli-auth.ts')

/**
 * An auth module as docs/adapters.md#set-up has users write it: it imports
 * the schema module `generate --output` writes, and its adapter factory
 * names its dialect but fails when bound, as `drizzleAdapter` does when the
 * module lacks a table.
 */
function drizzleStyleAuth(plugins: string): string {
  return [
    `import { createAuth } from ${JSON.stringify(resolve(__dirname, '../auth/create-auth.js'))}`,
    `import { definePlugin } from ${JSON.stringify(resolve(__dirname, '../plugins/types.js'))}`,
    "import * as authSchema from './db/auth-schema.js'",
    "const database = Object.assign(() => { throw new Error(`bound to ${Object.keys(authSchema).length} tables`) }, { dialect: 'postgres' as const })",
    'export const auth = createAuth({',
    "  baseURL: 'http://localhost:3000',",
    "  secret: 'cli-test-secret-0123456789abcdefghijkl',",
    '  database,',
    '  logger: { disabled: true },',
    `  plugins: [${plugins}],`,
    '})',
  ].join('\n')
}

function capture(cwd: string) {
  const io = { out: '', err: '' }
  return { io, sink: { out: (text: string) => void (io.out += text), err: (text: string) => void (io.err += text), cwd } }
}

describe('gatehouse CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-'))
  const db = join(dir, 'app.db')
  process.env.GATEHOUSE_CLI_TEST_DB = db
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('without a command prints usage; an unknown command exits 2', async () => {
    const help = capture(dir)
    expect(await runCli([], help.sink)).toBe(0)
    expect(help.io.err).toContain('Usage: gatehouse')
    expect(await runCli(['frobnicate'], capture(dir).sink)).toBe(2)
  })

  it.each(['--help', '-h', 'help'])('%s prints the usage to stdout and exits 0', async (flag) => {
    const help = capture(dir)
    expect(await runCli([flag], help.sink)).toBe(0)
    expect(help.io.out).toContain('Usage: gatehouse <command>')
    expect(help.io.err).toBe('')
  })

  it('without a config it says so and exits 2', async () => {
    const run = capture(dir)
    expect(await runCli(['migrate'], run.sink)).toBe(2)
    expect(run.io.err).toContain('No auth module found')
  })

  it('with --config naming a missing file it says the file is missing, not that none was passed', async () => {
    const run = capture(dir)
    expect(await runCli(['migrate', '--config', './dist/auth.js'], run.sink)).toBe(2)
    expect(run.io.err).toBe(`The config file ${join(dir, 'dist', 'auth.js')} does not exist (--config ./dist/auth.js).\n`)
  })

  it('generate prints the SQL for core, plugin and additional fields, and runs nothing', async () => {
    const run = capture(dir)
    expect(await runCli(['generate', '--config', fixture], run.sink)).toBe(0)
    expect(run.io.out).toMatch(/create table "user"/i)
    expect(run.io.out).toMatch(/"plan"/)
    expect(run.io.out).toMatch(/create table "widget"/i)
    const raw = new Database(db)
    expect(raw.prepare("select name from sqlite_master where type = 'table' and name = 'user'").all()).toEqual([])
    raw.close()
  })

  it('generate --output writes a file', async () => {
    const run = capture(dir)
    expect(await runCli(['generate', '--config', fixture, '--output', 'schema.sql'], run.sink)).toBe(0)
    expect(readFileSync(join(dir, 'schema.sql'), 'utf8')).toMatch(/create table "session"/i)
  })

  it('generate --format drizzle writes a Drizzle module for core, plugin and additional fields', async () => {
    const run = capture(dir)
    expect(await runCli(['generate', '--config', fixture, '--format', 'drizzle', '--dialect', 'postgres'], run.sink)).toBe(0)
    expect(run.io.out).toContain("from 'drizzle-orm/pg-core'")
    expect(run.io.out).toContain("export const widget = pgTable('widget', {")
    expect(run.io.out).toContain("  plan: text('plan'),")
    expect(run.io.out).toContain("foreignKey({ name: 'session_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade')")
    // Without --dialect, the configured adapter's (SQLite here); with --output, a file.
    const written = capture(dir)
    expect(await runCli(['generate', '--config', fixture, '--format=drizzle', '--output', 'auth-schema.ts'], written.sink)).toBe(0)
    expect(written.io.out).toBe('Wrote the drizzle schema (sqlite, 6 tables) to auth-schema.ts\n')
    expect(readFileSync(join(dir, 'auth-schema.ts'), 'utf8')).toContain("export const widget = sqliteTable('widget', {")
  })

  it('generate --format drizzle --output writes the module the auth module imports, without binding the adapter, with its dialect', async () => {
    const app = join(dir, 'drizzle-app')
    mkdirSync(join(app, 'src'), { recursive: true })
    writeFileSync(join(app, 'src/auth.ts'), drizzleStyleAuth(''))
    // The first run: src/db/auth-schema.ts does not exist yet.
    const first = capture(app)
    expect(await runCli(['generate', '--format', 'drizzle', '--output', 'src/db/auth-schema.ts'], first.sink)).toBe(0)
    expect(first.io.out).toBe('Wrote the drizzle schema (postgres, 5 tables) to src/db/auth-schema.ts\n')
    expect(readFileSync(join(app, 'src/db/auth-schema.ts'), 'utf8')).toContain("export const session = pgTable('session', {")

    // A plugin added: the module on disk lacks its table, which the adapter would refuse; generating never binds it.
    writeFileSync(join(app, 'src/auth-widgets.ts'), drizzleStyleAuth("definePlugin({ id: 'widgets', schema: { widget: { fields: { label: { type: 'string' } } } } })"))
    const again = capture(app)
    expect(await runCli(['generate', '--config', 'src/auth-widgets.ts', '--format', 'drizzle', '--output', 'src/db/auth-schema.ts'], again.sink)).toBe(0)
    expect(readFileSync(join(app, 'src/db/auth-schema.ts'), 'utf8')).toContain("export const widget = pgTable('widget', {")
  })

  it('generate --format drizzle to standard output, before the imported module exists, says to pass it as --output', async () => {
    const app = join(dir, 'drizzle-stdout')
    mkdirSync(join(app, 'src'), { recursive: true })
    writeFileSync(join(app, 'src/auth.ts'), drizzleStyleAuth(''))
    const error: unknown = await runCli(['generate', '--format', 'drizzle'], capture(app).sink).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/auth-schema\.js/)
    expect((error as Error).message).toContain('pass its path as --output')
    expect((error as Error).message).not.toContain('run `gatehouse generate')
  })

  it('generate --format drizzle|prisma takes the dialect from postgresAdapter and mysqlAdapter, and connects to nothing', async () => {
    const app = join(dir, 'unreachable')
    mkdirSync(app, { recursive: true })
    for (const [adapter, dialect] of [['postgres', 'postgres'], ['mysql', 'mysql']] as const) {
      const file = join(app, `${adapter}.ts`)
      // Port 1: nothing listens there, so any connection attempt fails the command.
      writeFileSync(
        file,
        [
          `import { createAuth } from ${JSON.stringify(resolve(__dirname, '../auth/create-auth.js'))}`,
          `import { ${adapter}Adapter } from ${JSON.stringify(resolve(__dirname, `../db/kysely/${adapter}.js`))}`,
          `export const auth = createAuth({ baseURL: 'http://localhost:3000', logger: { disabled: true }, database: ${adapter}Adapter('${adapter}://user@127.0.0.1:1/none') })`,
        ].join('\n'),
      )
      const drizzle = capture(app)
      expect(await runCli(['generate', '--config', file, '--format', 'drizzle'], drizzle.sink)).toBe(0)
      expect(drizzle.io.out).toContain(`from 'drizzle-orm/${dialect === 'postgres' ? 'pg' : 'mysql'}-core'`)
      const prisma = capture(app)
      expect(await runCli(['generate', '--config', file, '--format', 'prisma'], prisma.sink)).toBe(0)
      expect(prisma.io.out).toContain(`provider = "${dialect === 'postgres' ? 'postgresql' : 'mysql'}"`)
    }
  })

  it('generate --format drizzle that fails leaves no placeholder behind', async () => {
    const app = join(dir, 'drizzle-refused')
    mkdirSync(join(app, 'src'), { recursive: true })
    writeFileSync(join(app, 'src/auth.ts'), drizzleStyleAuth(''))
    const run = capture(app)
    expect(await runCli(['generate', '--format', 'drizzle', '--dialect', 'oracle', '--output', 'src/db/auth-schema.ts'], run.sink)).toBe(2)
    expect(existsSync(join(app, 'src/db/auth-schema.ts'))).toBe(false)
  })

  it('generate --format prisma writes Prisma models; an unknown format or dialect exits 2', async () => {
    const run = capture(dir)
    expect(await runCli(['generate', '--config', fixture, '--format', 'prisma', '--dialect', 'mysql'], run.sink)).toBe(0)
    expect(run.io.out).toContain('provider = "mysql"')
    expect(run.io.out).toContain('@@map("widget")')
    const format = capture(dir)
    expect(await runCli(['generate', '--config', fixture, '--format', 'typeorm'], format.sink)).toBe(2)
    expect(format.io.err).toBe('--format must be sql, drizzle or prisma, not "typeorm"\n')
    const dialect = capture(dir)
    expect(await runCli(['generate', '--config', fixture, '--format', 'drizzle', '--dialect', 'oracle'], dialect.sink)).toBe(2)
    expect(dialect.io.err).toBe('--format drizzle needs --dialect postgres, mysql or sqlite, not "oracle"\n')
  })

  it('migrate creates the tables; a second run has nothing to do', async () => {
    const first = capture(dir)
    expect(await runCli(['migrate', `--config=${fixture}`], first.sink)).toBe(0)
    expect(first.io.out).toMatch(/^Applied \d+ statement\(s\)\.$/m)
    const second = capture(dir)
    expect(await runCli(['migrate', '--config', fixture], second.sink)).toBe(0)
    expect(second.io.out).toBe('The database is up to date.\n')

    const raw = new Database(db)
    const tables = raw.prepare("select name from sqlite_master where type = 'table' order by name").all() as Array<{ name: string }>
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining(['account', 'rateLimit', 'session', 'user', 'verification', 'widget']),
    )
    const columns = raw.prepare('pragma table_info("user")').all() as Array<{ name: string }>
    expect(columns.map((column) => column.name)).toContain('plan')
    raw.close()
  })

  it('cleanup deletes expired rows in batches, keeps live ones, and prints the counts', async () => {
    const raw = new Database(db)
    const now = Date.now()
    raw.prepare('insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt") values (?, ?, ?, 0, ?, ?)').run(
      'u1', 'Ada', 'ada@example.com', new Date(now).toISOString(), new Date(now).toISOString(),
    )
    const session = raw.prepare('insert into session (id, "userId", token, "expiresAt", "createdAt", "updatedAt") values (?, ?, ?, ?, ?, ?)')
    for (const [id, offset] of [['old-1', -60_000], ['old-2', -120_000], ['old-3', -180_000], ['live', 3_600_000]] as const) {
      session.run(id, 'u1', `token-${id}`, new Date(now + offset).toISOString(), new Date(now).toISOString(), new Date(now).toISOString())
    }
    raw.prepare('insert into "rateLimit" (id, key, count, "lastRequest") values (?, ?, 1, ?)').run('r1', '203.0.113.1|/sign-in/email', now - 3_600_000)

    const run = capture(dir)
    expect(await runCli(['cleanup', '--config', fixture, '--batch-size', '2'], run.sink)).toBe(0)
    expect(run.io.out).toBe('session: 3 deleted\nverification: 0 deleted\nrateLimit: 1 deleted\n')
    const left = raw.prepare('select id from session order by id').all() as Array<{ id: string }>
    expect(left.map((row) => row.id)).toEqual(['live'])
    raw.close()

    const refused = capture(dir)
    expect(await runCli(['cleanup', '--config', fixture, '--batch-size', 'many'], refused.sink)).toBe(2)
    expect(refused.io.err).toContain('--batch-size must be a positive integer')
  })
})
