/**
 * An application's own Drizzle tables, keyed in its own style, bound by the
 * columns' database names that `naming` resolves (docs/adapters.md#using-drizzle):
 * `verified: integer('email_verified')` holds `user.emailVerified`. Writes,
 * reads, where clauses, `returning` and joins go through the application's
 * keys and land in the named columns.
 */
import { applyNaming, coreSchema } from '@gatehouse/core'
import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { describe, expect, it } from 'vitest'
import { createDrizzleAdapter } from '../src/index.js'

const schema = applyNaming(
  { user: coreSchema.user, session: coreSchema.session },
  { plural: true, casing: 'snake_case', models: { user: { columns: { id: 'user_id' } } } },
)

const users = sqliteTable('users', {
  key: text('user_id').primaryKey(),
  fullName: text('name').notNull(),
  mail: text('email').notNull().unique(),
  verified: integer('email_verified', { mode: 'boolean' }).notNull(),
  avatar: text('image'),
  created: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updated: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  credentialVersion: text('credential_version'),
  // The application's own column, which Gatehouse neither reads nor writes.
  nickname: text('nickname'),
})

const sessions = sqliteTable('sessions', {
  id: text('id').primaryKey(),
  owner: text('user_id').notNull(),
  token: text('token').notNull().unique(),
  expires: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  ipAddress: text('ip_address'),
  userAgent: text('user_agent'),
  amr: text('amr'),
})

const ddl = [
  'create table users (user_id text primary key, name text not null, email text not null unique, email_verified integer not null, image text, created_at integer not null, updated_at integer not null, credential_version text, nickname text)',
  'create table sessions (id text primary key, user_id text not null, token text not null unique, expires_at integer not null, created_at integer not null, updated_at integer not null, ip_address text, user_agent text, amr text)',
]

const at = new Date('2026-01-02T03:04:05.678Z')

describe('drizzleAdapter on tables keyed in the application’s style', () => {
  it('binds each field to the column its database name matches', async () => {
    const sqlite = new Database(':memory:')
    for (const statement of ddl) sqlite.exec(statement)
    const adapter = createDrizzleAdapter(drizzle(sqlite), { provider: 'sqlite', schema: { users, sessions } }, schema)
    const user = await adapter.create({ model: 'user', data: { id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: false, image: null, createdAt: at, updatedAt: at } })
    expect(user).toEqual({ id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: false, image: null, createdAt: at, updatedAt: at, credentialVersion: null })
    expect(await adapter.update({ model: 'user', where: { field: 'email', value: 'ada@example.com' }, update: { emailVerified: true } })).toMatchObject({ id: 'u1', emailVerified: true })
    await adapter.create({ model: 'session', data: { id: 's1', userId: 'u1', token: 't1', expiresAt: at, createdAt: at, updatedAt: at } })
    const joined = await adapter.findOne({ model: 'session', where: { field: 'token', value: 't1' }, join: { user: { model: 'user', on: { field: 'userId', references: 'id' } } } })
    expect(joined).toMatchObject({ id: 's1', userId: 'u1', user: { id: 'u1', email: 'ada@example.com', emailVerified: true } })
    expect(await adapter.count({ model: 'user', where: { field: 'emailVerified', value: true } })).toBe(1)
    expect(sqlite.prepare('select user_id, email_verified, nickname from users').all()).toEqual([{ user_id: 'u1', email_verified: 1, nickname: null }])
    expect(sqlite.prepare('select user_id from sessions').all()).toEqual([{ user_id: 'u1' }])
    sqlite.close()
  })

  it('names the key and the column it looked for when neither is there', () => {
    const sqlite = new Database(':memory:')
    const table = sqliteTable('users', {
      key: text('user_id').primaryKey(),
      fullName: text('name').notNull(),
      mail: text('email').notNull().unique(),
      // Under the field's own name, but not the column `naming` gives it.
      emailConfirmed: integer('email_confirmed', { mode: 'boolean' }).notNull(),
      avatar: text('image'),
      created: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
      updated: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
      credentialVersion: text('credential_version'),
    })
    expect(() => createDrizzleAdapter(drizzle(sqlite), { provider: 'sqlite', schema: { users: table, sessions } }, schema)).toThrow(
      'The Drizzle table for "user" has no column under the key "emailVerified" or named "email_verified": run `gatehouse generate --format drizzle` again (docs/adapters.md#using-drizzle)',
    )
    sqlite.close()
  })
})
