/**
 * A plugin added without its migration (docs/getting-started.md#3-create-the-tables):
 * the request answers the bare 500 (no SQL in the body), and the log line
 * names the missing table or column, the plugin that brings it and the
 * command that creates it. SQLite always; PostgreSQL and MariaDB when
 * configured. The classifier's driver shapes are checked on their own below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAuth } from '../src/auth/create-auth.js'
import { coreSchema } from '../src/db/schema.js'
import { describeMissingSchema, findMissingSchema } from '../src/db/missing-schema.js'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { definePlugin } from '../src/plugins/types.js'
import { PASSWORD } from './accounts.js'
import { captureLogs } from './capture-logs.js'
import { BASE, request, SECRET } from './helpers.js'
import { backendDialects, createTestBackend, type TestBackend } from './kysely-backends.js'

const listTeams = defineEndpoint({
  method: 'GET',
  path: '/teams',
  query: z.object({}),
  handler: ({ db }) => db.findMany({ model: 'team' }),
})

const teams = definePlugin({
  id: 'teams',
  schema: {
    team: { fields: { name: { type: 'string' } } },
    session: { fields: { activeTeamId: { type: 'string', required: false } } },
  },
  endpoints: { listTeams },
})

const BARE_500 = { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' }

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`a database migrated before the plugin was added, on ${dialect}`, () => {
    let backend: TestBackend | undefined
    const logs = captureLogs()
    const withPlugin = () => {
      if (!backend) throw new Error('backend not ready')
      return createAuth({ baseURL: BASE, secret: SECRET, database: backend.factory, logger: logs.logger, emailAndPassword: { enabled: true }, rateLimit: { enabled: false }, plugins: [teams] })
    }
    let auth: ReturnType<typeof withPlugin> | undefined

    /** Sends the request; asserts the bare 500 (no SQL in the body) and one error logged; returns that line. */
    async function bare500(sent: Request): Promise<string> {
      logs.lines.length = 0
      const response = await auth!.handler(sent)
      expect(response.status).toBe(500)
      expect(await response.json()).toEqual(BARE_500)
      const errors = logs.lines.filter((line) => line.startsWith('error '))
      expect(errors).toHaveLength(1)
      return errors[0] ?? ''
    }

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      // Core's tables only: the state of a database that was migrated before `plugins: [teams]` was added.
      const before = await backend.factory({ schema: coreSchema })
      await before.migrate?.({ dryRun: false })
      await before.close?.()
      auth = withPlugin()
    })
    afterAll(async () => {
      if (auth) await (await auth.$context).adapter.close?.()
      await backend?.drop()
    })

    it('a missing column: sign-up answers the bare 500, the log names the column, the plugin and `npx gatehouse migrate`', async () => {
      const error = await bare500(
        request('/api/auth/sign-up/email', { json: { name: 'Ada', email: `ada-${dialect}@example.com`, password: PASSWORD }, headers: { origin: BASE } }),
      )
      expect(error).toContain('the database is not migrated: column "activeTeamId"')
      expect(error).toContain('(model session.activeTeamId, from the teams plugin)')
      expect(error).toContain('Apply the migrations: npx gatehouse migrate')
      // No half-created user is left behind.
      expect(await backend!.db.selectFrom('user').selectAll().execute()).toEqual([])
    })

    it('a missing table: the plugin\'s route answers the bare 500, the log names the table and the plugin', async () => {
      const error = await bare500(request('/api/auth/teams'))
      expect(error).toContain('the database is not migrated: table "team" is missing (model team, from the teams plugin)')
      expect(error).toContain('npx gatehouse migrate')
    })

    it('after `migrate` the same calls succeed', async () => {
      await (await auth!.$context).adapter.migrate?.({ dryRun: false })
      expect((await auth!.handler(request('/api/auth/teams'))).status).toBe(200)
    })
  })
}

describe('findMissingSchema: each driver\'s words', () => {
  const sqlite = (message: string) => Object.assign(new Error(message), { name: 'SqliteError', code: 'SQLITE_ERROR' })
  it.each([
    ['SQLite no such table', sqlite('no such table: main.team'), { kind: 'table', table: 'team' }],
    ['SQLite insert', sqlite('table session has no column named activeTeamId'), { kind: 'column', table: 'session', column: 'activeTeamId' }],
    ['SQLite select', sqlite('no such column: session.activeTeamId'), { kind: 'column', table: 'session', column: 'activeTeamId' }],
    ['PostgreSQL 42P01', Object.assign(new Error('relation "public.team" does not exist'), { code: '42P01' }), { kind: 'table', table: 'team' }],
    [
      'PostgreSQL 42703 of relation',
      Object.assign(new Error('column "activeTeamId" of relation "session" does not exist'), { code: '42703' }),
      { kind: 'column', table: 'session', column: 'activeTeamId' },
    ],
    ['PostgreSQL 42703', Object.assign(new Error('column "activeTeamId" does not exist'), { code: '42703' }), { kind: 'column', table: undefined, column: 'activeTeamId' }],
    ['MySQL 1146', Object.assign(new Error("Table 'test.team' doesn't exist"), { errno: 1146, code: 'ER_NO_SUCH_TABLE' }), { kind: 'table', table: 'team' }],
    [
      'MySQL 1054',
      Object.assign(new Error("Unknown column 'activeTeamId' in 'field list'"), { errno: 1054, code: 'ER_BAD_FIELD_ERROR' }),
      { kind: 'column', table: undefined, column: 'activeTeamId' },
    ],
  ] as const)('%s', (_name, error, expected) => {
    expect(findMissingSchema(error)).toMatchObject({ ...expected, through: undefined })
  })

  it('reads through a Drizzle wrapper (DrizzleQueryError, the driver error as its cause) and names drizzle-kit', () => {
    const wrapped = Object.assign(new Error('Failed query: insert into "session" ... params: secret'), {
      name: 'DrizzleQueryError',
      cause: Object.assign(new Error('column "activeTeamId" of relation "session" does not exist'), { code: '42703' }),
    })
    const missing = findMissingSchema(wrapped)
    expect(missing).toEqual({ kind: 'column', table: 'session', column: 'activeTeamId', through: 'drizzle' })
    const line = describeMissingSchema(missing!, { schema: { ...coreSchema, session: { fields: { ...coreSchema.session.fields, activeTeamId: { type: 'string' } } } }, plugins: [teams], adapterId: 'drizzle-postgres' })
    expect(line.message).toContain('npx gatehouse generate --format drizzle --dialect postgres')
    expect(line.message).toContain('npx drizzle-kit migrate')
    expect(line.message).not.toContain('secret')
  })

  it('reads Prisma\'s P2021 and names prisma migrate', () => {
    const error = Object.assign(new Error('The table `main.team` does not exist in the current database.'), { code: 'P2021', clientVersion: '6.0.0', meta: { table: 'main.team' } })
    const missing = findMissingSchema(error)
    expect(missing).toEqual({ kind: 'table', table: 'team', column: undefined, through: 'prisma' })
    expect(describeMissingSchema(missing!, { schema: coreSchema, plugins: [], adapterId: 'prisma' }).message).toContain('npx prisma migrate dev')
  })

  it('names drizzle-kit for a Drizzle adapter whose error keeps only the driver error as cause (@gatehouse/drizzle)', () => {
    const wrapped = new Error('Failed query on "team": no such table: team\nselect ...', { cause: sqlite('no such table: team') })
    const missing = findMissingSchema(wrapped)
    expect(missing).toEqual({ kind: 'table', table: 'team', column: undefined, through: undefined })
    expect(describeMissingSchema(missing!, { schema: coreSchema, plugins: [teams], adapterId: 'drizzle-sqlite' }).message).toContain(
      'npx gatehouse generate --format drizzle --dialect sqlite',
    )
  })

  it("reads Prisma's names from the message when meta has none (driver adapters)", () => {
    const table = Object.assign(new Error('The table `main.team` does not exist in the current database.'), { code: 'P2021', clientVersion: '7.0.0', meta: { modelName: 'team' } })
    expect(findMissingSchema(table)).toMatchObject({ kind: 'table', table: 'team', through: 'prisma' })
    const column = Object.assign(new Error('The column `main.session.activeTeamId` does not exist in the current database.'), { code: 'P2022', clientVersion: '7.0.0', meta: {} })
    expect(findMissingSchema(column)).toMatchObject({ kind: 'column', table: 'session', column: 'activeTeamId', through: 'prisma' })
  })

  it('names core as the owner of a core table, and leaves other errors alone', () => {
    const missing = findMissingSchema(Object.assign(new Error('relation "verification" does not exist'), { code: '42P01' }))
    expect(describeMissingSchema(missing!, { schema: coreSchema, plugins: [], adapterId: 'kysely-postgres' }).message).toContain('(model verification, from Gatehouse core)')
    expect(findMissingSchema(sqlite('UNIQUE constraint failed: user.email'))).toBeUndefined()
    expect(findMissingSchema(new Error('no such table: user'))).toBeUndefined()
    expect(findMissingSchema('no such table')).toBeUndefined()
  })
})
