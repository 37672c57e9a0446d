/**
 * The adapter conformance suite on SQLite: a database file in a temporary
 * directory (WAL, foreign keys on) and an in-memory database.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
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
