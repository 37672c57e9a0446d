/**
 * Fresh databases made the way an application makes them with Drizzle:
 * `gatehouse generate --format drizzle` writes the schema module,
 * `drizzle-kit generate` (the real CLI, offline) turns it into SQL, and the
 * SQL is applied to a database of its own: a SQLite file in a temporary
 * folder, a new PostgreSQL database, a new MariaDB database, each with a
 * random name and dropped by `drop()`, and opened with one of the five
 * drivers (node-postgres or postgres-js, mysql2, better-sqlite3 or libsql). The folder sits inside this package
 * so the module and drizzle-kit resolve `drizzle-orm` from it.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { Schema } from '@gatehouse/core'
import { createClient } from '@libsql/client'
import Database from 'better-sqlite3'
import { drizzle as drizzleLibsql } from 'drizzle-orm/libsql'
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { drizzle as drizzlePostgresJs } from 'drizzle-orm/postgres-js'
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3'
import { createConnection, createPool } from 'mysql2/promise'
import pg from 'pg'
import postgres from 'postgres'
import { drizzleSchema, type DrizzleDialect } from '../../core/src/cli/generate-drizzle.js'
import { services } from '../../core/test/services.js'
import type { Driver, DrizzleDatabase, Provider } from '../src/index.js'

const packageDir = resolve(__dirname, '..')
const drizzleKit = join(packageDir, 'node_modules', '.bin', 'drizzle-kit')

export const dialects: readonly { readonly dialect: DrizzleDialect; readonly provider: Provider; readonly enabled: boolean }[] = [
  { dialect: 'sqlite', provider: 'sqlite', enabled: true },
  { dialect: 'postgres', provider: 'pg', enabled: Boolean(services.postgres) },
  { dialect: 'mysql', provider: 'mysql', enabled: Boolean(services.mysql) },
]

/** Every driver the adapter supports, with its dialect; the second driver of a dialect runs the conformance suite only. */
export const drivers: readonly { readonly driver: Driver; readonly dialect: DrizzleDialect; readonly enabled: boolean }[] = [
  { driver: 'better-sqlite3', dialect: 'sqlite', enabled: true },
  { driver: 'libsql', dialect: 'sqlite', enabled: true },
  { driver: 'node-postgres', dialect: 'postgres', enabled: Boolean(services.postgres) },
  { driver: 'postgres-js', dialect: 'postgres', enabled: Boolean(services.postgres) },
  { driver: 'mysql2', dialect: 'mysql', enabled: Boolean(services.mysql) },
]

const defaultDriver: Readonly<Record<DrizzleDialect, Driver>> = { sqlite: 'better-sqlite3', postgres: 'node-postgres', mysql: 'mysql2' }

export interface DrizzleBackend {
  readonly dialect: DrizzleDialect
  readonly driver: Driver
  readonly provider: Provider
  readonly db: DrizzleDatabase
  /** The generated module, imported: tables keyed by model name. */
  readonly tables: Readonly<Record<string, unknown>>
  /** What the Kysely adapters take to open the same database. */
  readonly location: string
  /** The SQL drizzle-kit wrote, statement by statement. */
  readonly statements: readonly string[]
  /** Closes the connections and removes the database and the folder. */
  drop(): Promise<void>
}

const run = promisify(execFile)

/** Writes the schema module and a drizzle-kit config into `dir`, runs `drizzle-kit generate`, and returns the statements. */
async function drizzleKitGenerate(dir: string, schema: Schema, dialect: DrizzleDialect): Promise<string[]> {
  writeFileSync(join(dir, 'auth-schema.ts'), drizzleSchema(schema, dialect))
  const kitDialect = dialect === 'postgres' ? 'postgresql' : dialect
  writeFileSync(join(dir, 'drizzle.config.ts'), `export default { dialect: '${kitDialect}', schema: './auth-schema.ts', out: './drizzle' }\n`)
  await run(drizzleKit, ['generate', '--config', 'drizzle.config.ts'], { cwd: dir })
  const files = readdirSync(join(dir, 'drizzle')).filter((file) => file.endsWith('.sql')).sort()
  return files.flatMap((file) =>
    readFileSync(join(dir, 'drizzle', file), 'utf8')
      .split('--> statement-breakpoint')
      .map((statement) => statement.trim())
      .filter((statement) => statement !== ''),
  )
}

/**
 * A fresh database holding `schema`'s tables as drizzle-kit creates them,
 * with a Drizzle database on it.
 *
 * @example
 * const backend = await createDrizzleBackend('postgres', conformanceSchema)
 * const adapter = createDrizzleAdapter(backend.db, { provider: backend.provider, schema: backend.tables }, conformanceSchema)
 */
export async function createDrizzleBackend(dialect: DrizzleDialect, schema: Schema, driver: Driver = defaultDriver[dialect]): Promise<DrizzleBackend> {
  const name = `gatehouse_drizzle_${randomBytes(6).toString('hex')}`
  const dir = join(packageDir, 'test', '.generated', name)
  mkdirSync(dir, { recursive: true })
  const removeDir = () => rmSync(dir, { recursive: true, force: true })
  try {
    const statements = await drizzleKitGenerate(dir, schema, dialect)
    const tables = (await import(pathToFileURL(join(dir, 'auth-schema.ts')).href)) as Record<string, unknown>
    switch (dialect) {
      case 'sqlite':
        return driver === 'libsql' ? await libsqlBackend(dir, statements, tables, removeDir) : sqliteBackend(dir, statements, tables, removeDir)
      case 'postgres':
        return await postgresBackend(name, statements, tables, removeDir, driver)
      case 'mysql':
        return await mysqlBackend(name, statements, tables, removeDir)
    }
  } catch (error) {
    removeDir()
    throw error
  }
}

function sqliteBackend(dir: string, statements: readonly string[], tables: Record<string, unknown>, removeDir: () => void): DrizzleBackend {
  const file = join(dir, 'auth.db')
  const client = new Database(file)
  // As an application opens it: WAL, and foreign keys on so deletes cascade.
  client.pragma('journal_mode = WAL')
  client.pragma('foreign_keys = ON')
  for (const statement of statements) client.exec(statement)
  return {
    dialect: 'sqlite',
    driver: 'better-sqlite3',
    provider: 'sqlite',
    db: drizzleSqlite(client),
    tables,
    location: file,
    statements,
    async drop() {
      client.close()
      removeDir()
    },
  }
}

/** A `file:` database through libsql's client, which opens its own connections (foreign keys on, as libsql has them). */
async function libsqlBackend(dir: string, statements: readonly string[], tables: Record<string, unknown>, removeDir: () => void): Promise<DrizzleBackend> {
  const file = join(dir, 'auth.db')
  const client = createClient({ url: pathToFileURL(file).href })
  await client.execute('pragma journal_mode = WAL')
  for (const statement of statements) await client.execute(statement)
  return {
    dialect: 'sqlite',
    driver: 'libsql',
    provider: 'sqlite',
    db: drizzleLibsql(client),
    tables,
    location: file,
    statements,
    async drop() {
      client.close()
      removeDir()
    },
  }
}

async function postgresBackend(name: string, statements: readonly string[], tables: Record<string, unknown>, removeDir: () => void, driver: Driver): Promise<DrizzleBackend> {
  const url = services.postgres ?? ''
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin(`create database "${name}"`)
  const isolated = new URL(url)
  isolated.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: isolated.toString(), max: 10 })
  for (const statement of statements) await pool.query(statement)
  const client = driver === 'postgres-js' ? postgres(isolated.toString(), { max: 10, onnotice: () => undefined }) : undefined
  return {
    dialect: 'postgres',
    driver: client ? 'postgres-js' : 'node-postgres',
    provider: 'pg',
    db: client ? drizzlePostgresJs(client) : drizzlePg(pool),
    tables,
    location: isolated.toString(),
    statements,
    async drop() {
      await client?.end()
      await pool.end()
      await admin(`drop database if exists "${name}"`)
      removeDir()
    },
  }
}

async function mysqlBackend(name: string, statements: readonly string[], tables: Record<string, unknown>, removeDir: () => void): Promise<DrizzleBackend> {
  const url = services.mysql ?? ''
  const admin = await createConnection(url)
  await admin.query(`create database \`${name}\``)
  const isolated = new URL(url)
  isolated.pathname = `/${name}`
  const pool = createPool({ uri: isolated.toString(), connectionLimit: 10 })
  for (const statement of statements) await pool.query(statement)
  return {
    dialect: 'mysql',
    driver: 'mysql2',
    provider: 'mysql',
    db: drizzleMysql(pool),
    tables,
    location: isolated.toString(),
    statements,
    async drop() {
      await pool.end()
      await admin.query(`drop database if exists \`${name}\``)
      await admin.end()
      removeDir()
    },
  }
}
