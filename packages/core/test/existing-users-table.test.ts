/**
 * Gatehouse on an application's own `users` table
 * (docs/adapters.md#mapping-onto-an-existing-users-table): the app created the
 * table first, with its own `plan` column and a row; `naming` maps the user
 * model onto it, the migrator adds only the missing columns, and sign-up,
 * sign-in and get-session work over HTTP with the rows stored under the
 * mapped names. Then what the migrator refuses in such a table, before it
 * changes anything. SQLite always; PostgreSQL and MariaDB when their env is set.
 */
import { sql, type Kysely } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createAuth } from '../src/auth/create-auth.js'
import type { SqlDialect } from '../src/db/kysely/dialect.js'
import { runMigrations } from '../src/migrations/run-migrations.js'
import type { NamingOptions } from '../src/options.js'
import { BASE, request, SECRET } from './helpers.js'
import { backendDialects, createTestBackend, type Tables, type TestBackend } from './kysely-backends.js'

const NAMING: NamingOptions = { casing: 'snake_case', models: { user: { tableName: 'users' } } }

const TYPES: Record<SqlDialect, { key: string; text: string; date: string; integer: string }> = {
  sqlite: { key: 'text', text: 'text', date: 'text', integer: 'integer' },
  postgres: { key: 'text', text: 'text', date: 'timestamptz', integer: 'integer' },
  mysql: { key: 'varchar(255)', text: 'varchar(255)', date: 'datetime(3)', integer: 'int' },
}

/** The application's table as it was before Gatehouse, with a row: `columns` replaces, adds or (null) removes column definitions. */
async function createAppUsers(db: Kysely<Tables>, dialect: SqlDialect, columns: Record<string, string | null> = {}, collation = 'utf8mb4_bin'): Promise<void> {
  const type = TYPES[dialect]
  const all: Record<string, string | null> = {
    id: `${type.key} primary key`,
    email: `${type.text} not null`,
    name: `${type.text} not null`,
    created_at: `${type.date} not null`,
    plan: `${type.text}`,
    ...columns,
  }
  const q = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)
  const definitions = Object.entries(all).flatMap(([name, definition]) => (definition === null ? [] : [`${q(name)} ${definition}`]))
  // MySQL: Gatehouse's foreign keys to users.id are utf8mb4_bin, and a key must match the column it references.
  const options = dialect === 'mysql' ? ` default charset=utf8mb4 collate=${collation}` : ''
  await sql.raw(`create table ${q('users')} (${definitions.join(', ')})${options}`).execute(db)
  if (!all.id) return
  const appId = all.id.includes('int') ? 1 : 'app-1'
  await sql`insert into ${sql.id('users')} (${sql.id('id')}, ${sql.id('email')}, ${sql.id('name')}, ${sql.id('created_at')}, ${sql.id('plan')})
    values (${appId}, ${'old@example.com'}, ${'Old Customer'}, ${dialect === 'sqlite' ? '2024-01-01T00:00:00.000Z' : new Date('2024-01-01T00:00:00.000Z')}, ${'pro'})`.execute(db)
}

function authOn(backend: TestBackend, resetTokens: string[] = []) {
  return createAuth({
    baseURL: BASE,
    secret: SECRET,
    database: backend.factory,
    logger: { disabled: true },
    naming: NAMING,
    emailAndPassword: { enabled: true, sendResetPassword: ({ token }) => void resetTokens.push(token) },
  })
}

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .join('; ')
}

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`an existing users table on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let close: (() => Promise<void>) | undefined
    afterEach(async () => {
      await close?.()
      await backend?.drop()
      close = undefined
      backend = undefined
    })

    const resetTokens: string[] = []

    async function start(columns?: Record<string, string | null>, collation?: string) {
      backend = await createTestBackend(dialect)
      await createAppUsers(backend.db, dialect, columns, collation)
      const auth = authOn(backend, resetTokens)
      close = async () => (await auth.$context).adapter.close?.()
      return { auth, db: backend.db }
    }

    it('adds only the missing columns, keeps the app’s row and column, and signs up, in and on over HTTP', async () => {
      const { auth, db } = await start()
      const { statements } = await runMigrations(auth)
      const onUsers = statements.filter((statement) => /^alter table ["`]users["`]/.test(statement))
      expect(onUsers.map((statement) => /add column ["`](\w+)["`]/.exec(statement)?.[1])).toEqual(['email_verified', 'image', 'updated_at', 'credential_version'])
      expect(statements.some((statement) => /create table ["`]users["`]/.test(statement))).toBe(false)
      expect(statements.some((statement) => statement.includes('users_email_uniq'))).toBe(true)

      const signUp = await auth.handler(request('/api/auth/sign-up/email', { json: { email: 'Ada@Example.com', password: 'correct horse battery', name: 'Ada' } }))
      expect(signUp.status).toBe(200)
      const signedUp = (await signUp.json()) as { user: { id: string; email: string; emailVerified: boolean } }
      expect(signedUp.user).toMatchObject({ email: 'ada@example.com', emailVerified: false })

      const signIn = await auth.handler(request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: 'correct horse battery' } }))
      expect(signIn.status).toBe(200)
      const session = await auth.handler(request('/api/auth/get-session', { headers: { cookie: cookieOf(signIn) } }))
      expect(session.status).toBe(200)
      expect(((await session.json()) as { user: { id: string; name: string } }).user).toMatchObject({ id: signedUp.user.id, name: 'Ada' })

      const { rows } = await sql<Record<string, unknown>>`select ${sql.id('id')} as id, ${sql.id('email')} as email, ${sql.id('name')} as name,
          ${sql.id('email_verified')} as verified, ${sql.id('plan')} as plan from ${sql.id('users')} order by ${sql.id('email')}`.execute(db)
      expect(rows.map((row) => ({ ...row, verified: Boolean(row.verified) }))).toEqual([
        { id: signedUp.user.id, email: 'ada@example.com', name: 'Ada', verified: false, plan: null },
        { id: 'app-1', email: 'old@example.com', name: 'Old Customer', verified: false, plan: 'pro' },
      ])
      const sessions = await sql<{ user_id: string }>`select ${sql.id('user_id')} from ${sql.id('session')}`.execute(db)
      expect(sessions.rows.map((row) => row.user_id)).toEqual([signedUp.user.id, signedUp.user.id])
      const accounts = await sql<{ provider_id: string; account_id: string }>`select ${sql.id('provider_id')}, ${sql.id('account_id')} from ${sql.id('account')}`.execute(db)
      expect(accounts.rows).toEqual([{ provider_id: 'credential', account_id: signedUp.user.id }])

      // The app's own user has no credential account: a password reset gives it one, and it signs in.
      const asked = await auth.handler(request('/api/auth/request-password-reset', { json: { email: 'old@example.com' }, headers: { origin: BASE } }))
      expect(asked.status).toBe(200)
      const reset = await auth.handler(
        request('/api/auth/reset-password', { json: { newPassword: 'a brand new passphrase', token: resetTokens.at(-1) }, headers: { origin: BASE } }),
      )
      expect(reset.status).toBe(200)
      const oldSignIn = await auth.handler(request('/api/auth/sign-in/email', { json: { email: 'old@example.com', password: 'a brand new passphrase' } }))
      expect(oldSignIn.status).toBe(200)
      expect(((await oldSignIn.json()) as { user: { id: string; name: string } }).user).toMatchObject({ id: 'app-1', name: 'Old Customer' })

      // Everything is in place: a second run plans nothing.
      expect((await runMigrations(auth)).statements).toEqual([])
    })

    it('refuses an app column that is NOT NULL without a default, before changing anything', async () => {
      const { auth, db } = await start({ plan: `${TYPES[dialect].text} not null` })
      await expect(runMigrations(auth)).rejects.toThrow(
        'column "users"."plan" is NOT NULL without a default, and Gatehouse does not write it, so every new user would fail',
      )
      const tables = await db.introspection.getTables()
      expect(tables.map((table) => table.name)).not.toContain('session')
    })

    it('accepts an app column that is NOT NULL with a default', async () => {
      const { auth } = await start({ plan: `${TYPES[dialect].text} not null default 'free'` })
      await runMigrations(auth)
      const signUp = await auth.handler(request('/api/auth/sign-up/email', { json: { email: 'ada@example.com', password: 'correct horse battery', name: 'Ada' } }))
      expect(signUp.status).toBe(200)
    })

    it('refuses an integer id column: Gatehouse ids are strings', async () => {
      const { auth } = await start({ id: `${TYPES[dialect].integer} primary key` })
      await expect(runMigrations(auth)).rejects.toThrow(/column "users"\."id" \(\w+\) cannot hold user\.id: Gatehouse ids are strings/)
    })

    it('refuses a column whose type cannot hold the field', async () => {
      const { auth } = await start({ email_verified: `${TYPES[dialect].text}` })
      await expect(runMigrations(auth)).rejects.toThrow(/column "users"\."email_verified" is \w+, which cannot hold user\.emailVerified \(boolean\)/)
    })

    it.skipIf(dialect !== 'mysql')('refuses, on MySQL, an id column whose collation the foreign keys to it cannot match', async () => {
      const { auth } = await start({}, 'utf8mb4_general_ci')
      await expect(runMigrations(auth)).rejects.toThrow(
        'column "users"."id" has collation utf8mb4_general_ci; the foreign keys Gatehouse creates to it are utf8mb4_bin, and MySQL needs the two to match',
      )
    })

    it('refuses a table without the id column, naming the option that maps it', async () => {
      const { auth } = await start({ id: null, user_id: `${TYPES[dialect].key} primary key` })
      await expect(runMigrations(auth)).rejects.toThrow('table "users" exists but has no column "id" for user.id; name its primary key column with naming.models.user.columns.id')
    })
  })
}

describe('createAuth with naming', () => {
  it('refuses at start-up a naming entry for a model or field that does not exist', () => {
    const start = (naming: NamingOptions) => () => createAuth({ baseURL: BASE, secret: SECRET, logger: { disabled: true }, naming })
    expect(start({ models: { users: { tableName: 'users' } } })).toThrow('Gatehouse: `naming.models.users` names no model')
    expect(start({ models: { user: { columns: { verified: 'is_verified' } } } })).toThrow('`naming.models.user.columns.verified` names no field of "user"')
    expect(start({ models: { user: { columns: { name: 'email' } } } })).toThrow('fields "user.name" and "user.email" are both named column "email"')
  })

  it('hands every adapter the resolved names, additional fields included', async () => {
    const auth = createAuth({
      baseURL: BASE,
      secret: SECRET,
      logger: { disabled: true },
      naming: { plural: true, casing: 'snake_case', models: { user: { columns: { id: 'user_id' } } } },
      user: { additionalFields: { planTier: { type: 'string', required: false } } },
    })
    const { schema } = await auth.$context
    expect(schema.user).toMatchObject({ tableName: 'users', idColumnName: 'user_id' })
    expect(schema.user?.fields.planTier?.columnName).toBe('plan_tier')
    expect(schema.rateLimit?.tableName).toBe('rate_limits')
  })
})
