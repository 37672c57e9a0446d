/**
 * Fresh databases for the tests, each holding a schema's tables as
 * `gatehouse migrate` creates them (through core's Kysely adapter: the
 * Prisma CLI's schema engine, which `prisma migrate` and `prisma db push`
 * need, is a download this machine cannot make), and a Prisma Client on it
 * through Prisma's driver adapter: a SQLite file in a temporary folder, a
 * new PostgreSQL database, a new MariaDB database, each with a random name
 * and dropped by `drop()`.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AdapterFactory, Schema } from '@gatehouse/core'
import { mysqlAdapter } from '@gatehouse/core/adapters/mysql'
import { postgresAdapter } from '@gatehouse/core/adapters/postgres'
import { sqliteAdapter } from '@gatehouse/core/adapters/sqlite'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaMariaDb } from '@prisma/adapter-mariadb'
import { PrismaPg } from '@prisma/adapter-pg'
import { createConnection } from 'mysql2/promise'
import pg from 'pg'
import { services } from '../../core/test/services.js'
import type { PrismaClientLike, PrismaProvider } from '../src/index.js'
import { clientDir, TEST_SCHEMAS, type TestDialect, type TestSchemaName } from './paths.js'

export const dialects: readonly { readonly dialect: TestDialect; readonly provider: PrismaProvider; readonly enabled: boolean }[] = [
  { dialect: 'sqlite', provider: 'sqlite', enabled: true },
  { dialect: 'postgres', provider: 'postgresql', enabled: Boolean(services.postgres) },
  { dialect: 'mysql', provider: 'mysql', enabled: Boolean(services.mysql) },
]

/** A generated client, as the tests call it. */
export interface TestClient extends PrismaClientLike {
  readonly $queryRawUnsafe: (query: string, ...values: unknown[]) => Promise<unknown>
  $disconnect(): Promise<void>
}

export interface PrismaBackend {
  readonly dialect: TestDialect
  readonly provider: PrismaProvider
  readonly prisma: TestClient
  /** What core's Kysely adapters take to open the same database. */
  readonly location: string
  /** Disconnects the client and removes the database. */
  drop(): Promise<void>
}

export type DriverAdapter = PrismaBetterSqlite3 | PrismaPg | PrismaMariaDb

/** The generated module's `PrismaClient`, loaded at run time: it exists only after the global setup ran. */
export async function loadClient(dialect: TestDialect, schema: TestSchemaName, adapter: DriverAdapter): Promise<TestClient> {
  const module: unknown = await import(pathToFileURL(join(clientDir(dialect, schema), 'client.ts')).href)
  const PrismaClient: unknown = Reflect.get(Object(module), 'PrismaClient')
  if (typeof PrismaClient !== 'function') throw new Error(`No PrismaClient in the client generated for ${dialect}-${schema}`)
  const client: unknown = Reflect.construct(PrismaClient, [{ adapter }])
  return client as TestClient
}

function kyselyFactory(dialect: TestDialect, location: string): AdapterFactory {
  switch (dialect) {
    case 'sqlite':
      return sqliteAdapter(location)
    case 'postgres':
      return postgresAdapter(location)
    case 'mysql':
      return mysqlAdapter(location)
  }
}

/** Creates the tables of `schema` with core's migration, as `gatehouse migrate` would. */
async function migrate(dialect: TestDialect, location: string, schema: Schema): Promise<void> {
  const kysely = await kyselyFactory(dialect, location)({ schema })
  try {
    await kysely.migrate?.()
  } finally {
    await kysely.close?.()
  }
}

/** A backend whose `drop` disconnects the client, then removes the database with `remove`. */
function backend(dialect: TestDialect, prisma: TestClient, location: string, remove: () => Promise<unknown>): PrismaBackend {
  const provider = dialects.find((entry) => entry.dialect === dialect)?.provider ?? 'sqlite'
  return {
    dialect,
    provider,
    prisma,
    location,
    async drop() {
      await prisma.$disconnect()
      await remove()
    },
  }
}

/**
 * A fresh database holding the tables of one of the test schemas, with a
 * Prisma Client generated for that schema on it.
 *
 * @example
 * const backend = await createPrismaBackend('sqlite', 'default')
 * const adapter = createPrismaAdapter(backend.prisma, { provider: backend.provider }, TEST_SCHEMAS.default)
 */
export async function createPrismaBackend(dialect: TestDialect, name: TestSchemaName, schema: Schema = TEST_SCHEMAS[name]): Promise<PrismaBackend> {
  const database = `gatehouse_prisma_${randomBytes(6).toString('hex')}`
  switch (dialect) {
    case 'sqlite': {
      const dir = mkdtempSync(join(tmpdir(), 'gatehouse-prisma-'))
      const file = join(dir, 'auth.db')
      await migrate(dialect, file, schema)
      const prisma = await loadClient(dialect, name, new PrismaBetterSqlite3({ url: `file:${file}` }))
      return backend(dialect, prisma, file, async () => rmSync(dir, { recursive: true, force: true }))
    }
    case 'postgres': {
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
      await admin(`create database "${database}"`)
      const isolated = new URL(url)
      isolated.pathname = `/${database}`
      await migrate(dialect, isolated.toString(), schema)
      const prisma = await loadClient(dialect, name, new PrismaPg({ connectionString: isolated.toString(), max: 10 }))
      return backend(dialect, prisma, isolated.toString(), () => admin(`drop database if exists "${database}"`))
    }
    case 'mysql': {
      const url = new URL(services.mysql ?? '')
      const admin = await createConnection(url.toString())
      await admin.query(`create database \`${database}\``)
      const isolated = new URL(url)
      isolated.pathname = `/${database}`
      await migrate(dialect, isolated.toString(), schema)
      const prisma = await loadClient(
        dialect,
        name,
        new PrismaMariaDb({ host: isolated.hostname, port: Number(isolated.port || 3306), user: decodeURIComponent(isolated.username), password: decodeURIComponent(isolated.password), database, connectionLimit: 10 }),
      )
      return backend(dialect, prisma, isolated.toString(), async () => {
        await admin.query(`drop database if exists \`${database}\``)
        await admin.end()
      })
    }
  }
}
