/**
 * @module
 * DATABASE_ADAPTER=drizzle: the example's database through
 * `@gatehouse/drizzle` (docs/adapters.md#using-drizzle), on the connection
 * an application using Drizzle already has: node-postgres or mysql2 from
 * DATABASE_URL, better-sqlite3 at DATABASE_PATH otherwise. The tables are the
 * committed modules in ./drizzle, written by `gatehouse generate --format
 * drizzle` for this server's plugins (test/drizzle-schema.test.ts fails when
 * they fall behind). Loaded only when the variable asks for it.
 *
 * Drizzle applications migrate with drizzle-kit. The example keeps its one
 * start command instead: `runMigrations` creates the tables with core's own
 * migration, which makes exactly the tables, columns and indexes the modules
 * describe (packages/drizzle/test checks that the two agree), then every
 * query goes through Drizzle.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Adapter, AdapterFactory } from '@gatehouse/core'
import { drizzleAdapter } from '@gatehouse/drizzle'
import type { ServerConfig } from './config.js'

/**
 * The Drizzle adapter's factory, with core's migration as its `migrate` and
 * `close()` ending the connection this module opened.
 *
 * @example
 * const database = await drizzleDatabase(readConfig({ DATABASE_ADAPTER: 'drizzle' }), addonPath)
 */
export async function drizzleDatabase(config: ServerConfig, nativeBinding: string): Promise<AdapterFactory> {
  const url = config.databaseUrl
  if (url?.startsWith('mysql:')) {
    const [{ drizzle }, { createPool }, schema, { mysqlAdapter }] = await Promise.all([
      import('drizzle-orm/mysql2'),
      import('mysql2/promise'),
      import('./drizzle/auth-schema-mysql.js'),
      import('@gatehouse/core/adapters/mysql'),
    ])
    const pool = createPool({ uri: url })
    return migrated(drizzleAdapter(drizzle(pool), { provider: 'mysql', schema }), mysqlAdapter(url), () => pool.end())
  }
  if (url !== undefined) {
    const [{ drizzle }, { default: pg }, schema, { postgresAdapter }] = await Promise.all([
      import('drizzle-orm/node-postgres'),
      import('pg'),
      import('./drizzle/auth-schema-postgres.js'),
      import('@gatehouse/core/adapters/postgres'),
    ])
    const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 10_000 })
    // An idle connection the server ends (a restart) is an `error` on the pool: without a listener it would end the process.
    pool.on('error', () => undefined)
    return migrated(drizzleAdapter(drizzle(pool), { provider: 'pg', schema }), postgresAdapter(url), () => pool.end())
  }
  const [{ drizzle }, { default: Database }, schema, { sqliteAdapter }] = await Promise.all([
    import('drizzle-orm/better-sqlite3'),
    import('better-sqlite3'),
    import('./drizzle/auth-schema-sqlite.js'),
    import('@gatehouse/core/adapters/sqlite'),
  ])
  mkdirSync(dirname(config.databasePath), { recursive: true })
  const client = new Database(config.databasePath, { nativeBinding })
  // As core's SQLite adapter opens a file: WAL, cascading deletes, and a wait rather than SQLITE_BUSY.
  client.pragma('journal_mode = WAL')
  client.pragma('foreign_keys = ON')
  client.pragma('busy_timeout = 5000')
  const migration = sqliteAdapter(config.databasePath, { nativeBinding })
  return migrated(drizzleAdapter(drizzle(client), { provider: 'sqlite', schema }), migration, async () => void client.close())
}

/** `adapter` with `migrate` delegated to core's adapter on the same database, and `close` ending the connection. */
function migrated(adapter: AdapterFactory, migration: AdapterFactory, end: () => Promise<void>): AdapterFactory {
  let ended: Promise<void> | undefined
  const close = () => (ended ??= end())
  return async ({ schema }): Promise<Adapter> => {
    const drizzle = await adapter({ schema })
    return {
      ...drizzle,
      capabilities: { ...drizzle.capabilities, migrations: true },
      async migrate(options) {
        const kysely = await migration({ schema })
        try {
          if (!kysely.migrate) throw new Error('core\'s adapter cannot migrate')
          return await kysely.migrate(options)
        } finally {
          await kysely.close?.()
        }
      },
      close,
    }
  }
}
