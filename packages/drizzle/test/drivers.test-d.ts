/**
 * Type tests, checked by `pnpm typecheck`: a Drizzle database as an
 * application makes it (typed with the application's own schema) is
 * accepted on each of the five drivers, and a wrong provider name is not.
 */
import { createClient } from '@libsql/client'
import Database from 'better-sqlite3'
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3'
import { drizzle as drizzleLibsql } from 'drizzle-orm/libsql'
import { mysqlTable, varchar } from 'drizzle-orm/mysql-core'
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { pgTable, text } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePostgresJs } from 'drizzle-orm/postgres-js'
import { sqliteTable, text as sqliteText } from 'drizzle-orm/sqlite-core'
import { createPool } from 'mysql2/promise'
import pg from 'pg'
import postgres from 'postgres'
import { describe, expectTypeOf, it } from 'vitest'
import type { AdapterFactory } from '@gatehouse/core'
import { drizzleAdapter } from '../src/index.js'

const authSchema = {}
const projects = pgTable('projects', { id: text('id').primaryKey(), ownerId: text('owner_id') })
const notes = mysqlTable('notes', { id: varchar('id', { length: 36 }).primaryKey() })
const tags = sqliteTable('tags', { id: sqliteText('id').primaryKey() })

describe('drizzleAdapter accepts an application database on each driver', () => {
  it('node-postgres and postgres-js', () => {
    const nodePg = drizzlePg(new pg.Pool(), { schema: { projects } })
    const postgresJs = drizzlePostgresJs(postgres(), { schema: { projects } })
    expectTypeOf(drizzleAdapter(nodePg, { provider: 'pg', schema: authSchema })).toEqualTypeOf<AdapterFactory>()
    expectTypeOf(drizzleAdapter(postgresJs, { provider: 'pg', schema: authSchema, lockTimeout: 5000 })).toEqualTypeOf<AdapterFactory>()
  })

  it('mysql2', () => {
    const db = drizzleMysql(createPool({ uri: 'mysql://localhost/app' }), { schema: { notes }, mode: 'default' })
    expectTypeOf(drizzleAdapter(db, { provider: 'mysql', schema: authSchema })).toEqualTypeOf<AdapterFactory>()
  })

  it('better-sqlite3 and libsql', () => {
    const betterSqlite = drizzleSqlite(new Database(':memory:'), { schema: { tags } })
    const libsql = drizzleLibsql(createClient({ url: 'file:app.db' }), { schema: { tags } })
    expectTypeOf(drizzleAdapter(betterSqlite, { provider: 'sqlite', schema: authSchema })).toEqualTypeOf<AdapterFactory>()
    expectTypeOf(drizzleAdapter(libsql, { provider: 'sqlite', schema: authSchema })).toEqualTypeOf<AdapterFactory>()
  })

  it('refuses a provider that is not one of the three', () => {
    const db = drizzlePg(new pg.Pool())
    // @ts-expect-error 'postgres' is not a provider: it is 'pg'
    drizzleAdapter(db, { provider: 'postgres', schema: authSchema })
  })
})
