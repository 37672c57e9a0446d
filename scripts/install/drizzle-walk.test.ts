/**
 * docs/adapters.md "Using Drizzle", followed as written with the packed
 * packages in one fresh npm project (installed once), on SQLite and, when
 * their URLs are set, PostgreSQL and MariaDB: the auth module is written
 * before the schema module it imports exists, `gatehouse generate --format
 * drizzle` writes it, drizzle-kit migrates it; the organization plugin is
 * added and the module generated again (drizzle-kit adds the team tables and
 * the session column); an app table references the user through
 * `gatehouseId`. Files and commands come from the section's code blocks, so
 * the page cannot drift from the packages. The page's files are PostgreSQL's:
 * for the other databases the few lines its dialect table names are swapped.
 * A short script through `auth.api` then proves the tables work.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { freshFolder, installSpecs, markdownSection, npmInstall, readGuide, repoRoot, run, type GuideStep } from './install-kit.js'

const section = markdownSection(readFileSync(join(repoRoot, 'docs/adapters.md'), 'utf8'), '## Using Drizzle')
const guide = readGuide(section)
const project = freshFolder('drizzle-walk')
afterAll(() => project.remove())

/** The Drizzle versions the workspace builds and tests @gatehouse/drizzle with, from the npm registry. */
function workspaceVersion(name: string): string {
  // pnpm links each dependency into the package's node_modules; drizzle-orm's exports map hides its package.json from resolve().
  return (JSON.parse(readFileSync(join(repoRoot, 'packages/drizzle/node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
}

type Dialect = 'postgres' | 'mysql' | 'sqlite'

/** Replaces each `from` (which must occur: a page that changed breaks this test, not silently the walk). */
function swap(text: string, pairs: ReadonlyArray<readonly [string, string]>, file: string): string {
  let swapped = text
  for (const [from, to] of pairs) {
    if (!swapped.includes(from)) throw new Error(`docs/adapters.md's ${file} no longer contains ${JSON.stringify(from)}: update drizzle-walk.test.ts`)
    swapped = swapped.split(from).join(to)
  }
  return swapped
}

/** The lines the page's dialect table changes, per file, from PostgreSQL's. */
const SWAPS: Readonly<Record<Dialect, Readonly<Record<string, ReadonlyArray<readonly [string, string]>>>>> = {
  postgres: {},
  mysql: {
    'src/auth.ts': [
      ["import pg from 'pg'", "import mysql from 'mysql2/promise'"],
      ["'drizzle-orm/node-postgres'", "'drizzle-orm/mysql2'"],
      ['drizzle(new pg.Pool({ connectionString: process.env.DATABASE_URL }))', 'drizzle(mysql.createPool({ uri: process.env.DATABASE_URL }))'],
      ["provider: 'pg'", "provider: 'mysql'"],
    ],
    'drizzle.config.ts': [["dialect: 'postgresql'", "dialect: 'mysql'"]],
    // MySQL has no TEXT primary key: the app's own id is a varchar.
    'src/db/schema.ts': [
      ["import { pgTable, text } from 'drizzle-orm/pg-core'", "import { mysqlTable, text, varchar } from 'drizzle-orm/mysql-core'"],
      ['pgTable(', 'mysqlTable('],
      ["text('id')", "varchar('id', { length: 36 })"],
    ],
  },
  sqlite: {
    'src/auth.ts': [
      ["import pg from 'pg'", "import Database from 'better-sqlite3'"],
      ["'drizzle-orm/node-postgres'", "'drizzle-orm/better-sqlite3'"],
      ['drizzle(new pg.Pool({ connectionString: process.env.DATABASE_URL }))', "drizzle(new Database('app.db'))\ndb.$client.pragma('foreign_keys = ON')"],
      ["provider: 'pg'", "provider: 'sqlite'"],
    ],
    'drizzle.config.ts': [["dialect: 'postgresql'", "dialect: 'sqlite'"]],
    'src/db/schema.ts': [
      ["'drizzle-orm/pg-core'", "'drizzle-orm/sqlite-core'"],
      ['pgTable', 'sqliteTable'],
    ],
  },
}

/**
 * How the script opens a relational Drizzle database on the same client, and closes it. Drizzle's relational
 * queries do not run on MariaDB (LATERAL joins, or in `planetscale` mode derived tables with outer references,
 * both refused): there the script says so instead, as docs/adapters.md#your-tables-and-gatehouses does.
 */
const DRIVERS: Readonly<Record<Dialect, { readonly module: string; readonly options: string; readonly close: string }>> = {
  postgres: { module: 'drizzle-orm/node-postgres', options: '', close: 'await db.$client.end()' },
  mysql: { module: 'drizzle-orm/mysql2', options: ", mode: 'default'", close: 'await db.$client.end()' },
  sqlite: { module: 'drizzle-orm/better-sqlite3', options: '', close: 'db.$client.close()' },
}

/**
 * Not from the page: signs up and creates an organization through
 * `auth.api`, stores a project owned by the user, and reads it back with a
 * join and with a relational query; deleting the user then takes the project
 * with it, which only a real foreign key does.
 */
function checkScript(dialect: Dialect): string {
  const driver = DRIVERS[dialect]
  return `import { count, eq } from 'drizzle-orm'
import { drizzle } from '${driver.module}'
import { auth, db } from './auth.js'
import * as authSchema from './db/auth-schema.js'
import * as appSchema from './db/schema.js'

const signUp = await auth.api.signUpEmail({ body: { name: 'Ada', email: 'Ada@Example.com', password: 'correct horse battery staple' }, asResponse: true })
if (signUp.status !== 200) throw new Error(\`sign-up answered \${signUp.status}: \${await signUp.text()}\`)
const cookie = signUp.headers.getSetCookie().map((line) => line.split(';', 1)[0]).join('; ')
const { user } = (await signUp.json()) as { user: { id: string } }
const organization = await auth.api.createOrganization({ body: { name: 'Acme', slug: 'acme' }, headers: { cookie } })
const sessions = await db.select().from(authSchema.session).where(eq(authSchema.session.userId, user.id))
await db.insert(appSchema.project).values({ id: 'p1', name: 'Rocket', ownerId: user.id })
const joined = await db
  .select({ project: appSchema.project.name, owner: authSchema.user.email })
  .from(appSchema.project)
  .innerJoin(authSchema.user, eq(appSchema.project.ownerId, authSchema.user.id))
const mariadb = ${dialect === 'mysql' ? "String(((await db.$client.query('select version() as version')) as [Array<{ version: string }>])[0][0]?.version).includes('MariaDB')" : 'false'}
const relational = drizzle(db.$client, { schema: { ...authSchema, ...appSchema }${driver.options} })
const projects = mariadb ? undefined : await relational.query.project.findMany({ with: { owner: true } })
const members = mariadb ? undefined : await relational.query.member.findMany({ with: { user: true, organization: true } })
await db.delete(authSchema.user).where(eq(authSchema.user.id, user.id))
const [left] = await db.select({ projects: count() }).from(appSchema.project)
console.log(JSON.stringify({
  organization: organization.slug,
  sessionColumns: Object.keys(sessions[0] ?? {}).sort(),
  joined,
  mariadb,
  projects: projects?.map((row) => ({ name: row.name, owner: row.owner.email })),
  members: members?.map((row) => ({ role: row.role, user: row.user.email, organization: row.organization.slug, team: row.teamId !== null })),
  projectsAfterDelete: left?.projects,
}))
await auth.close()
${driver.close}
`
}

/** Runs SQL on the server's admin URL through the project's own driver: the install project needs no client of its own. */
async function admin(dialect: 'postgres' | 'mysql', url: string, statement: string): Promise<void> {
  const script =
    dialect === 'postgres'
      ? "import pg from 'pg'; const client = new pg.Client(process.argv[2]); await client.connect(); await client.query(process.argv[3]); await client.end()"
      : "import mysql from 'mysql2/promise'; const client = await mysql.createConnection(process.argv[2]); await client.query(process.argv[3]); await client.end()"
  writeFileSync(join(project.dir, 'admin.mjs'), script)
  await run('node', ['admin.mjs', url, statement], { cwd: project.dir })
}

/** The newest migration drizzle-kit wrote. */
function latestMigration(): string {
  const files = readdirSync(join(project.dir, 'drizzle')).filter((file) => file.endsWith('.sql')).sort()
  return readFileSync(join(project.dir, 'drizzle', files.at(-1) ?? ''), 'utf8')
}

const services = { postgres: process.env.GATEHOUSE_TEST_POSTGRES_URL, mysql: process.env.GATEHOUSE_TEST_MYSQL_URL }

describe('docs/adapters.md "Using Drizzle", followed from the packed packages', () => {
  beforeAll(async () => {
    // Every `npm install` line of the section, once, with the drivers of the other two databases.
    const names = new Set<string>()
    const dev = new Set<string>()
    for (const command of guide.commands.filter((line) => line.startsWith('npm install '))) {
      const args = command.split(/\s+/).slice(2)
      for (const name of args.filter((arg) => !arg.startsWith('-'))) (args.includes('-D') ? dev : names).add(name)
    }
    names.add('mysql2').add('better-sqlite3')
    const pinned = (name: string) => (name === 'drizzle-orm' || name === 'drizzle-kit' ? `${name}@${workspaceVersion(name)}` : name)
    await run('npm', ['init', '-y'], { cwd: project.dir })
    await run('npm', ['pkg', 'set', 'type=module'], { cwd: project.dir })
    await npmInstall(project.dir, installSpecs([...names], inject('packed')).map(pinned))
    await npmInstall(project.dir, installSpecs([...dev], inject('packed')).map(pinned), true)
  }, 600_000)

  it('writes the auth module before its schema module, adds a plugin, and references the user from an app table', () => {
    expect(guide.steps.filter((step) => 'file' in step).map((step) => ('file' in step ? step.file : ''))).toEqual(['src/auth.ts', 'drizzle.config.ts', 'src/auth.ts', 'src/db/schema.ts'])
    expect(guide.commands.filter((command) => command.startsWith('npx gatehouse generate'))).toEqual([
      'npx gatehouse generate --format drizzle --output src/db/auth-schema.ts',
      'npx gatehouse generate --format drizzle --output src/db/auth-schema.ts',
    ])
  })

  const dialects = [
    { dialect: 'sqlite', url: undefined },
    { dialect: 'postgres', url: services.postgres },
    { dialect: 'mysql', url: services.mysql },
  ] as const
  for (const { dialect, url } of dialects) {
    it.skipIf(dialect !== 'sqlite' && !url)(`on ${dialect}: generate, migrate, regenerate after a plugin, an app foreign key, and auth.api`, { timeout: 600_000 }, async () => {
      const cwd = project.dir
      for (const leftover of ['src', 'drizzle', 'drizzle.config.ts', 'app.db']) rmSync(join(cwd, leftover), { recursive: true, force: true })
      // The application's own schema, before it has any table pointing at Gatehouse's.
      mkdirSync(join(cwd, 'src/db'), { recursive: true })
      writeFileSync(join(cwd, 'src/db/schema.ts'), 'export {}\n')
      let databaseUrl = 'app.db'
      let drop = async (): Promise<void> => {}
      if (dialect !== 'sqlite' && url) {
        const name = `gh_walk_${randomBytes(4).toString('hex')}`
        await admin(dialect, url, `create database ${name}`)
        drop = () => admin(dialect, url, `drop database ${name}`)
        const target = new URL(url)
        target.pathname = `/${name}`
        databaseUrl = target.href
      }
      try {
        const env = { DATABASE_URL: databaseUrl }
        const migrations: string[] = []
        for (const step of guide.steps as GuideStep[]) {
          if ('file' in step) {
            mkdirSync(dirname(join(cwd, step.file)), { recursive: true })
            writeFileSync(join(cwd, step.file), swap(step.text, SWAPS[dialect][step.file] ?? [], step.file))
            continue
          }
          const [tool, ...args] = step.command.split(/\s+/)
          if (tool === 'npm' && args[0] === 'install') continue
          if (tool === 'npx' && (args[0] === 'gatehouse' || args[0] === 'drizzle-kit')) {
            // The first generate runs before src/db/auth-schema.ts exists, as on the page.
            if (args[0] === 'gatehouse' && migrations.length === 0) expect(existsSync(join(cwd, 'src/db/auth-schema.ts'))).toBe(false)
            await run('npx', ['--no-install', ...args], { cwd, env })
            if (args[0] === 'drizzle-kit' && args[1] === 'generate') migrations.push(latestMigration())
            continue
          }
          throw new Error(`docs/adapters.md runs \`${step.command}\`, which this test does not know how to follow: teach it here.`)
        }

        const [first = '', plugin = '', app = ''] = migrations
        expect(migrations).toHaveLength(3)
        expect(first).toMatch(/CREATE TABLE [`"]session[`"]/)
        // Incremental: the plugin's tables and the session column, not core's tables again.
        expect(plugin).toMatch(/CREATE TABLE [`"]team[`"]/)
        expect(plugin).toMatch(/CREATE TABLE [`"]teamMember[`"]/)
        expect(plugin).toMatch(/ALTER TABLE [`"]session[`"] ADD [`"]?(COLUMN )?[`"]?activeTeamId/i)
        expect(plugin).not.toMatch(/CREATE TABLE [`"]user[`"]/)
        expect(app).toMatch(/CREATE TABLE [`"]project[`"]/)
        expect(app).toMatch(/REFERENCES [`"]?(public[`"]?\.[`"]?)?user[`"]?\s*\([`"]id[`"]\)/)
        if (dialect === 'mysql') expect(app).toContain('`owner_id` varchar(255) character set utf8mb4 collate utf8mb4_bin NOT NULL')

        writeFileSync(join(cwd, 'src/check.ts'), checkScript(dialect))
        const output = await run('npx', ['--no-install', 'tsx', 'src/check.ts'], { cwd, env })
        const line = output.split('\n').find((text) => text.startsWith('{'))
        expect(line, output).toBeDefined()
        const result = JSON.parse(line ?? '{}') as Record<string, unknown>
        const relational = result.mariadb
          ? {}
          : { projects: [{ name: 'Rocket', owner: 'ada@example.com' }], members: [{ role: 'owner', user: 'ada@example.com', organization: 'acme', team: true }] }
        expect(result).toEqual({
          organization: 'acme',
          sessionColumns: expect.arrayContaining(['activeOrganizationId', 'activeTeamId', 'token', 'userId']),
          joined: [{ project: 'Rocket', owner: 'ada@example.com' }],
          mariadb: dialect === 'mysql' ? expect.any(Boolean) : false,
          ...relational,
          projectsAfterDelete: 0,
        })
      } finally {
        await drop()
      }
    })
  }
})
