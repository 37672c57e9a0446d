/**
 * The adapter conformance suite on SQLite: a database file in a temporary
 * directory (WAL, foreign keys on) and an in-memory database; and how a
 * file path is opened (docs/adapters.md#built-in-adapters).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { coreSchema } from '../src/db/schema.js'
import { sqliteAdapter } from '../src/db/kysely/sqlite.js'
import { runAdapterConformance } from '../src/testing/index.js'

const directory = mkdtempSync(join(tmpdir(), 'gatehouse-conformance-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

runAdapterConformance({
  name: 'sqlite (file)',
  createAdapter: (schema) => sqliteAdapter(join(directory, 'conformance.db'))({ schema }),
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
