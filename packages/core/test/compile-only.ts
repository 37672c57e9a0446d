/**
 * A Kysely instance that compiles for a dialect and never connects (its
 * driver is Kysely's `DummyDriver`): for tests of the SQL text the adapter writes.
 */
import {
  DummyDriver,
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'
import type { SqlDialect } from '../src/db/kysely/dialect.js'

const parts = {
  sqlite: { adapter: SqliteAdapter, introspector: SqliteIntrospector, compiler: SqliteQueryCompiler },
  postgres: { adapter: PostgresAdapter, introspector: PostgresIntrospector, compiler: PostgresQueryCompiler },
  mysql: { adapter: MysqlAdapter, introspector: MysqlIntrospector, compiler: MysqlQueryCompiler },
} as const

export function compileOnly(dialect: SqlDialect): Kysely<Record<string, Record<string, unknown>>> {
  const { adapter, introspector, compiler } = parts[dialect]
  return new Kysely({
    dialect: {
      createAdapter: () => new adapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new introspector(kysely),
      createQueryCompiler: () => new compiler(),
    },
  })
}
