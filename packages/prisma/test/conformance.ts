/**
 * Core's adapter conformance suite on the Prisma adapter, over a Prisma
 * Client generated from `gatehouse generate --format prisma`'s schema,
 * against a database `gatehouse migrate` created (databases.ts): the
 * generated schema maps onto those tables. Once under the models' own
 * names, once under plural snake_case tables with renamed ids, which the
 * generated schema must map with `@@map` and `@map`.
 */
import { afterAll, describe } from 'vitest'
import { runAdapterConformance } from '@gatehouse/core/testing'
import { createPrismaAdapter } from '../src/index.js'
import { createPrismaBackend, dialects, type PrismaBackend } from './databases.js'
import { TEST_SCHEMAS, type TestDialect, type TestSchemaName } from './paths.js'

/** Every table's columns, from the database's own catalog, read through the client's raw queries. */
const CATALOG: Readonly<Record<TestDialect, string>> = {
  sqlite: "select m.name as tableName, p.name as columnName from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table'",
  postgres: 'select table_name as "tableName", column_name as "columnName" from information_schema.columns where table_schema = current_schema()',
  mysql: 'select table_name as tableName, column_name as columnName from information_schema.columns where table_schema = database()',
}

async function listColumns(backend: PrismaBackend): Promise<ReadonlyMap<string, ReadonlySet<string>>> {
  const rows = await backend.prisma.$queryRawUnsafe(CATALOG[backend.dialect])
  const tables = new Map<string, Set<string>>()
  for (const row of Array.isArray(rows) ? rows : []) {
    const table = String(Reflect.get(Object(row), 'tableName'))
    const columns = tables.get(table) ?? new Set<string>()
    columns.add(String(Reflect.get(Object(row), 'columnName')))
    tables.set(table, columns)
  }
  return tables
}

/** Registers the suite for one dialect and schema; the database is made on first use and dropped after the file. */
function suite(dialect: TestDialect, name: TestSchemaName): void {
  let pending: Promise<PrismaBackend> | undefined
  afterAll(async () => {
    await (await pending)?.drop()
  })
  runAdapterConformance({
    name: `prisma ${dialect} (${name} names)`,
    schema: name === 'named' ? TEST_SCHEMAS.named : undefined,
    listColumns: async () => listColumns(await (pending ?? Promise.reject(new Error('The database is made with the adapter')))),
    createAdapter: async (schema) => {
      // The database holds only the suite's tables; the client knows more models, which the adapter is not asked about.
      pending ??= createPrismaBackend(dialect, name, schema)
      const { prisma, provider } = await pending
      return createPrismaAdapter(prisma, { provider }, schema)
    },
  })
}

/** The suite on `dialect`, skipped (with the reason vitest.services.ts prints) when its service is not configured. */
export function prismaConformance(dialect: TestDialect): void {
  const enabled = dialects.find((entry) => entry.dialect === dialect)?.enabled === true
  describe.skipIf(!enabled)(`prisma on ${dialect}`, () => {
    suite(dialect, 'default')
    suite(dialect, 'named')
  })
}
