/**
 * Core's adapter conformance suite on the Drizzle adapter, against a
 * database drizzle-kit migrated from the generated schema module
 * (databases.ts); then core's own migration planned against that same
 * database, which must find nothing to add: the generated module and
 * `gatehouse migrate` make the same tables, columns and indexes, so one
 * database serves either adapter.
 */
import { conformanceSchema, runAdapterConformance } from '@gatehouse/core/testing'
import { afterAll, describe, expect, it } from 'vitest'
import type { AdapterFactory } from '@gatehouse/core'
import type { Driver } from '../src/index.js'
import { mysqlAdapter } from '@gatehouse/core/adapters/mysql'
import { postgresAdapter } from '@gatehouse/core/adapters/postgres'
import { sqliteAdapter } from '@gatehouse/core/adapters/sqlite'
import { createDrizzleAdapter } from '../src/index.js'
import { createDrizzleBackend, type DrizzleBackend } from './databases.js'
import type { DrizzleDialect } from '../../core/src/cli/generate-drizzle.js'

function kyselyFactory(backend: DrizzleBackend): AdapterFactory {
  switch (backend.dialect) {
    case 'sqlite':
      return sqliteAdapter(backend.location)
    case 'postgres':
      return postgresAdapter(backend.location)
    case 'mysql':
      return mysqlAdapter(backend.location)
  }
}

/** Registers the suite for one dialect and driver; the database is made on first use and dropped after the file. */
export function drizzleConformance(dialect: DrizzleDialect, driver?: Driver): void {
  let pending: Promise<DrizzleBackend> | undefined
  const backend = () => (pending ??= createDrizzleBackend(dialect, conformanceSchema, driver))
  afterAll(async () => {
    await (await pending)?.drop()
  })

  runAdapterConformance({
    name: `drizzle ${dialect}${driver === undefined ? '' : ` on ${driver}`} (migrated by drizzle-kit)`,
    createAdapter: async (schema) => {
      const { db, provider, tables } = await backend()
      return createDrizzleAdapter(db, { provider, schema: tables }, schema)
    },
  })

  describe(`the drizzle-kit migration on ${dialect}`, () => {
    it('creates every table, and gatehouse migrate finds nothing to add to them', async () => {
      const made = await backend()
      expect(made.statements.filter((statement) => /^create table/i.test(statement))).toHaveLength(Object.keys(conformanceSchema).length)
      const kysely = await kyselyFactory(made)({ schema: conformanceSchema })
      try {
        expect((await kysely.migrate?.({ dryRun: true }))?.statements).toEqual([])
      } finally {
        await kysely.close?.()
      }
    })
  })
}
