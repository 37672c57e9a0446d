/**
 * The adapter conformance suite on PostgreSQL, isolated in a schema of its
 * own (random name, dropped afterwards) through the adapter's `schema` option.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe } from 'vitest'
import { postgresAdapter } from '../src/db/kysely/postgres.js'
import { runAdapterConformance } from '../src/testing/index.js'
import { services } from './services.js'

const url = services.postgres ?? ''
const schemaName = `gatehouse_conformance_${randomBytes(6).toString('hex')}`

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
  beforeAll(() => admin(`create schema "${schemaName}"`))
  afterAll(() => admin(`drop schema if exists "${schemaName}" cascade`))

  runAdapterConformance({
    name: 'postgres',
    createAdapter: (schema) => postgresAdapter(url, { schema: schemaName })({ schema }),
  })
})
