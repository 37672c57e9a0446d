/**
 * The adapter conformance suite on MySQL/MariaDB, isolated in a database of
 * its own (random name, dropped afterwards).
 */
import { randomBytes } from 'node:crypto'
import { createConnection, type RowDataPacket } from 'mysql2/promise'
import { afterAll, beforeAll, describe } from 'vitest'
import { mysqlAdapter } from '../src/db/kysely/mysql.js'
import { namedConformanceSchema, runAdapterConformance } from '../src/testing/index.js'
import { catalog } from './catalog.js'
import { services } from './services.js'

const url = services.mysql ?? ''
const databaseName = `gatehouse_conformance_${randomBytes(6).toString('hex')}`
const namedDatabaseName = `${databaseName}_named`

async function admin(statement: string): Promise<void> {
  const connection = await createConnection(url)
  try {
    await connection.query(statement)
  } finally {
    await connection.end()
  }
}

function isolatedUrl(name = databaseName): string {
  const isolated = new URL(url)
  isolated.pathname = `/${name}`
  return isolated.toString()
}

describe.skipIf(!services.mysql)('mysql', () => {
  beforeAll(async () => {
    await admin(`create database \`${databaseName}\``)
    await admin(`create database \`${namedDatabaseName}\``)
  })
  afterAll(async () => {
    await admin(`drop database if exists \`${databaseName}\``)
    await admin(`drop database if exists \`${namedDatabaseName}\``)
  })

  runAdapterConformance({
    name: 'mysql',
    createAdapter: (schema) => mysqlAdapter(isolatedUrl())({ schema }),
  })

  // Plural snake_case tables with renamed id columns (docs/adapters.md#naming-tables-and-columns), checked in the catalog.
  runAdapterConformance({
    name: 'mysql (named)',
    schema: namedConformanceSchema,
    createAdapter: (schema) => mysqlAdapter(isolatedUrl(namedDatabaseName))({ schema }),
    async listColumns() {
      const connection = await createConnection(url)
      try {
        const [rows] = await connection.query<({ tbl: string; col: string } & RowDataPacket)[]>(
          'select table_name as tbl, column_name as col from information_schema.columns where table_schema = ?',
          [namedDatabaseName],
        )
        return catalog(rows)
      } finally {
        await connection.end()
      }
    },
  })
})
