/**
 * The adapter conformance suite on PostgreSQL, isolated in a schema of its
 * own (random name, dropped afterwards) through the adapter's `schema` option.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe } from 'vitest'
import { postgresAdapter } from '../src/db/kysely/postgres.js'
import { namedConformanceSchema, runAdapterConformance } from '../src/testing/index.js'
import { catalog } from './catalog.js'
import { services } from './services.js'

const url = services.postgres ?? ''
const schemaName = `gatehouse_conformance_${randomBytes(6).toString('hex')}`
const namedSchemaName = `${schemaName}_named`

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

describe.skipIf(!services.postgres)('postgres', () => {
  beforeAll(() => admin(`create schema "${schemaName}"; create schema "${namedSchemaName}"`))
  afterAll(() => admin(`drop schema if exists "${schemaName}" cascade; drop schema if exists "${namedSchemaName}" cascade`))

  runAdapterConformance({
    name: 'postgres',
    createAdapter: (schema) => postgresAdapter(url, { schema: schemaName })({ schema }),
  })

  // Plural snake_case tables with renamed id columns (docs/adapters.md#naming-tables-and-columns), checked in the catalog.
  runAdapterConformance({
    name: 'postgres (named)',
    schema: namedConformanceSchema,
    createAdapter: (schema) => postgresAdapter(url, { schema: namedSchemaName })({ schema }),
    async listColumns() {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        const { rows } = await client.query<{ tbl: string; col: string }>(
          'select table_name as tbl, column_name as col from information_schema.columns where table_schema = $1',
          [namedSchemaName],
        )
        return catalog(rows)
      } finally {
        await client.end()
      }
    },
  })
})
