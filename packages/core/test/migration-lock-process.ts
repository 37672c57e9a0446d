/**
 * One server process starting up, for migration-lock.test.ts: it builds an
 * auth instance on the database named by its arguments, runs the migration,
 * and prints how many statements it ran. The test bundles this file and
 * starts several copies at once.
 */
import { createAuth } from '../src/auth/create-auth.js'
import type { AdapterFactory } from '../src/db/adapter.js'
import { mysqlAdapter } from '../src/db/kysely/mysql.js'
import { postgresAdapter } from '../src/db/kysely/postgres.js'
import { sqliteAdapter } from '../src/db/kysely/sqlite.js'
import { runMigrations } from '../src/migrations/run-migrations.js'

const [dialect = '', connection = '', schema] = process.argv.slice(2)

function database(): AdapterFactory {
  if (dialect === 'postgres') return postgresAdapter(connection, schema === undefined ? {} : { schema })
  if (dialect === 'mysql') return mysqlAdapter(connection)
  return sqliteAdapter(connection, { busyTimeout: 30_000 })
}

const auth = createAuth({
  baseURL: 'http://localhost:3000',
  secret: 'migration-lock-test-secret-0123456789abcdef',
  logger: { disabled: true },
  database: database(),
  // A plugin table too, so the migration is more than a handful of statements.
  schema: { widget: { fields: { name: { type: 'string', unique: true }, ownerId: { type: 'string', index: true } } } },
})

try {
  const { statements } = await runMigrations(auth)
  process.stdout.write(`${JSON.stringify({ statements: statements.length })}\n`)
} finally {
  await auth.close()
}
