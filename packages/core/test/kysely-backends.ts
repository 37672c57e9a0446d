/**
 * Isolated databases for the Kysely adapter's tests. Test files run in
 * parallel workers, so each backend gets its own place: a temporary directory
 * for SQLite, a fresh schema on PostgreSQL, a fresh database on MariaDB, each
 * with a random suffix and dropped by `drop()`.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { CompiledQuery, Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely'
import { createPool } from 'mysql2'
import pg from 'pg'
import type { AdapterFactory } from '../src/db/adapter.js'
import type { SqlDialect } from '../src/db/kysely/dialect.js'
import { mysqlAdapter } from '../src/db/kysely/mysql.js'
import { postgresAdapter } from '../src/db/kysely/postgres.js'
import { sqliteAdapter } from '../src/db/kysely/sqlite.js'
import { services } from './services.js'

export type Tables = Record<string, Record<string, unknown>>

export interface TestBackend {
  readonly dialect: SqlDialect
  /** A factory for a new adapter on the isolated database. */
  readonly factory: AdapterFactory
  /** A separate connection to the same database, for looking at what the adapter stored. */
  readonly db: Kysely<Tables>
  /** Closes the inspection connection and removes the database. */
  drop(): Promise<void>
}

export const backendDialects: readonly { readonly dialect: SqlDialect; readonly enabled: boolean }[] = [
  { dialect: 'sqlite', enabled: true },
  { dialect: 'postgres', enabled: Boolean(services.postgres) },
  { dialect: 'mysql', enabled: Boolean(services.mysql) },
]

function suffix(): string {
  return randomBytes(6).toString('hex')
}

export async function createTestBackend(dialect: SqlDialect): Promise<TestBackend> {
  switch (dialect) {
    case 'sqlite':
      return sqliteBackend()
    case 'postgres':
      return postgresBackend(services.postgres ?? '')
    case 'mysql':
      return mysqlBackend(services.mysql ?? '')
  }
}

function sqliteBackend(): TestBackend {
  const directory = mkdtempSync(join(tmpdir(), 'gatehouse-sqlite-'))
  const path = join(directory, 'test.db')
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new Database(path) }) })
  return {
    dialect: 'sqlite',
    factory: sqliteAdapter(path),
    db,
    async drop() {
      await db.destroy()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}

async function postgresBackend(url: string): Promise<TestBackend> {
  const schema = `gatehouse_test_${suffix()}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema "${schema}"`)
  await admin.end()
  const db = new Kysely<Tables>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: url, max: 2 }),
      onCreateConnection: async (connection) => {
        await connection.executeQuery(CompiledQuery.raw(`set search_path to "${schema}"`))
      },
    }),
  })
  return {
    dialect: 'postgres',
    factory: postgresAdapter(url, { schema }),
    db,
    async drop() {
      await db.destroy()
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`drop schema if exists "${schema}" cascade`)
      await client.end()
    },
  }
}

async function mysqlBackend(url: string): Promise<TestBackend> {
  const database = `gatehouse_test_${suffix()}`
  const admin = new Kysely<Tables>({ dialect: new MysqlDialect({ pool: createPool({ uri: url, connectionLimit: 1 }) }) })
  await admin.executeQuery(CompiledQuery.raw(`create database \`${database}\``))
  const isolated = new URL(url)
  isolated.pathname = `/${database}`
  const db = new Kysely<Tables>({
    dialect: new MysqlDialect({ pool: createPool({ uri: isolated.toString(), timezone: 'Z', connectionLimit: 2 }) }),
  })
  return {
    dialect: 'mysql',
    factory: mysqlAdapter(isolated.toString()),
    db,
    async drop() {
      await db.destroy()
      await admin.executeQuery(CompiledQuery.raw(`drop database if exists \`${database}\``))
      await admin.destroy()
    },
  }
}

/**
 * Resolves once another connection waits for a row lock in the backend's
 * PostgreSQL database (pg_stat_activity): for race tests that hold a lock
 * open and must act only once the other side is blocked on it, without
 * sleeping. MariaDB does not list such a waiter reliably in
 * information_schema.innodb_trx, so these tests run on PostgreSQL.
 */
export async function lockWaiter(backend: TestBackend): Promise<void> {
  if (backend.dialect !== 'postgres') throw new Error('lockWaiter reads pg_stat_activity: PostgreSQL only')
  const query = CompiledQuery.raw("select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()")
  for (;;) {
    const { rows } = await backend.db.executeQuery<{ waiting: number }>(query)
    if ((rows[0]?.waiting ?? 0) > 0) return
  }
}
