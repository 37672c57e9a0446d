/**
 * The adapter conformance suite on SQLite: a database file in a temporary
 * directory (WAL, foreign keys on) and an in-memory database; and how a
 * file path is opened (docs/adapters.md#built-in-adapters).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { coreSchema } from '../src/db/schema.js'
import { sqliteAdapter } from '../src/db/kysely/sqlite.js'
import { namedConformanceSchema, runAdapterConformance } from '../src/testing/index.js'
import { catalog } from './catalog.js'

const directory = mkdtempSync(join(tmpdir(), 'gatehouse-conformance-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

runAdapterConformance({
  name: 'sqlite (file)',
  createAdapter: (schema) => sqliteAdapter(join(directory, 'conformance.db'))({ schema }),
})

// The same cases on plural snake_case tables with renamed id columns, and the file's own catalog read beside the adapter.
const namedFile = join(directory, 'named.db')
runAdapterConformance({
  name: 'sqlite (named)',
  schema: namedConformanceSchema,
  createAdapter: (schema) => sqliteAdapter(namedFile)({ schema }),
  async listColumns() {
    const database = new Database(namedFile, { readonly: true })
    try {
      const rows = database
        .prepare("select m.name as tbl, p.name as col from sqlite_master m, pragma_table_info(m.name) p where m.type = 'table'")
        .all() as { tbl: string; col: string }[]
      return catalog(rows)
    } finally {
      database.close()
    }
  },
})

runAdapterConformance({
  name: 'sqlite (:memory:)',
  createAdapter: (schema) => sqliteAdapter(':memory:')({ schema }),
})

describe('sqliteAdapter given a file path', () => {
  it('creates the missing folder of the file, so `./data/app.db` works in an empty project', async () => {
    const file = join(directory, 'nested', 'data', 'app.db')
    const adapter = await sqliteAdapter(file)({ schema: coreSchema })
    await adapter.close?.()
    expect(existsSync(file)).toBe(true)
  })

  it('resolves a relative path against the working directory', async () => {
    const cwd = process.cwd()
    process.chdir(directory)
    try {
      const adapter = await sqliteAdapter('./relative/app.db')({ schema: coreSchema })
      await adapter.close?.()
    } finally {
      process.chdir(cwd)
    }
    expect(existsSync(join(directory, 'relative', 'app.db'))).toBe(true)
  })
})
