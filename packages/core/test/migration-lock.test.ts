/**
 * Several processes starting together migrate once
 * (docs/adapters.md#migrations-with-several-processes): eight real processes
 * run `runMigrations` at the same moment on a fresh SQLite file, PostgreSQL
 * schema and MariaDB database. Every one succeeds, exactly one runs
 * statements, and each table exists once. Without the lock, PostgreSQL
 * fails the losers on duplicate catalog rows and MariaDB on "table exists".
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mysqlDatabase, postgresSchema } from './private-servers.js'
import { services } from './services.js'

const run = promisify(execFile)
const PROCESSES = 8
const TABLES = ['account', 'rateLimit', 'session', 'user', 'verification', 'widget']

/** The one esbuild call used here (esbuild is not a direct dependency, so its types are not at hand). */
interface Bundler {
  build(options: Record<string, unknown>): Promise<unknown>
}

let directory: string
let bundleDirectory: string
let script: string

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'gatehouse-migration-lock-'))
  // Inside the package, so the bundle's imports of pg, mysql2, kysely resolve to core's own dependencies.
  const cache = resolve(import.meta.dirname, '../node_modules/.cache')
  mkdirSync(cache, { recursive: true })
  bundleDirectory = mkdtempSync(join(cache, 'migration-lock-'))
  script = join(bundleDirectory, 'migrate.mjs')
  // esbuild ships with tsup (a dev dependency): it turns the TypeScript entry into one runnable file.
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup/package.json'))('esbuild') as Bundler
  await esbuild.build({
    entryPoints: [resolve(import.meta.dirname, 'migration-lock-process.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  })
}, 60_000)

afterAll(() => {
  rmSync(directory, { recursive: true, force: true })
  rmSync(bundleDirectory, { recursive: true, force: true })
})

async function startTogether(args: readonly string[]): Promise<number[]> {
  const results = await Promise.all(
    Array.from({ length: PROCESSES }, () => run(process.execPath, [script, ...args], { cwd: resolve(import.meta.dirname, '..'), timeout: 60_000 })),
  )
  return results.map(({ stdout }) => (JSON.parse(stdout.trim()) as { statements: number }).statements)
}

function expectOneMigrator(counts: readonly number[]): void {
  expect(counts).toHaveLength(PROCESSES)
  expect(counts.filter((count) => count > 0)).toHaveLength(1)
  expect(counts.filter((count) => count === 0)).toHaveLength(PROCESSES - 1)
}

describe('migration lock', () => {
  it('SQLite: eight processes, one migration', async () => {
    const file = join(directory, 'auth.db')
    const counts = await startTogether(['sqlite', file])
    expectOneMigrator(counts)
    const raw = new Database(file)
    const tables = raw.prepare("select name from sqlite_master where type = 'table' order by name").all() as Array<{ name: string }>
    raw.close()
    expect(tables.map((table) => table.name)).toEqual(TABLES)
  })

  it.skipIf(!services.postgres)('PostgreSQL: eight processes, one migration', async () => {
    const admin = await postgresSchema(services.postgres ?? '')
    try {
      const counts = await startTogether(['postgres', services.postgres ?? '', admin.schema])
      expectOneMigrator(counts)
      const { rows } = await admin.sql('select table_name from information_schema.tables where table_schema = $1 order by table_name', [admin.schema])
      expect(rows.map((row: { table_name: string }) => row.table_name)).toEqual(TABLES)
      const indexes = await admin.sql('select indexname from pg_indexes where schemaname = $1 and indexname = $2', [admin.schema, 'widget_name_uniq'])
      expect(indexes.rowCount).toBe(1)
    } finally {
      await admin.drop()
    }
  })

  it.skipIf(!services.mysql)('MariaDB: eight processes, one migration', async () => {
    const admin = await mysqlDatabase(services.mysql ?? '')
    try {
      const counts = await startTogether(['mysql', admin.url])
      expectOneMigrator(counts)
      const rows = (await admin.sql('select table_name as name from information_schema.tables where table_schema = ? order by table_name', [
        admin.database,
      ])) as Array<{ name: string }>
      expect(rows.map((row) => row.name).sort()).toEqual([...TABLES].sort())
    } finally {
      await admin.drop()
    }
  })
})
