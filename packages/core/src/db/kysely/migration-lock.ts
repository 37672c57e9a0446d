/**
 * @module
 * One migration at a time per database, across processes and machines: when
 * several instances start together and each runs `runMigrations`, the first
 * takes the lock and creates the tables; the others wait, then plan again
 * against what it created and find nothing left to do
 * (docs/adapters.md#migrations-with-several-processes).
 *
 * - PostgreSQL: `pg_advisory_xact_lock` inside the migration's transaction,
 *   keyed by the current schema, released by the commit or rollback.
 * - MySQL/MariaDB: `GET_LOCK` on one dedicated connection, keyed by the
 *   database; DDL commits implicitly there, so the lock, not a transaction,
 *   keeps two migrations apart.
 * - SQLite: `BEGIN IMMEDIATE` takes the database's write lock at once, so a
 *   second process waits (busy_timeout) before it reads the schema.
 */
import { sql, type Kysely } from 'kysely'
import type { SqlDialect } from './dialect.js'

/** How long a MySQL instance waits for another's migration before giving up, in seconds. */
const MYSQL_LOCK_TIMEOUT_SECONDS = 120

/**
 * Runs `fn` holding the migration lock. `fn` receives the connection to
 * plan and migrate on: a transaction on PostgreSQL and SQLite (so the DDL
 * commits together), a single locked connection on MySQL.
 *
 * @example
 * await withMigrationLock(db, 'postgres', async (locked) => migrate(locked))
 */
export async function withMigrationLock<DB, R>(db: Kysely<DB>, dialect: SqlDialect, fn: (locked: Kysely<DB>) => Promise<R>): Promise<R> {
  switch (dialect) {
    case 'postgres': {
      const locked = async (trx: Kysely<DB>): Promise<R> => {
        await sql`select pg_advisory_xact_lock(hashtext(${'gatehouse:migrate:'} || current_schema()))`.execute(trx)
        return fn(trx)
      }
      return db.isTransaction ? locked(db) : db.transaction().execute(locked)
    }
    case 'mysql':
      return db.connection().execute(async (connection) => {
        const { rows } = await sql<{ acquired: number | null }>`select get_lock(${lockName}, ${MYSQL_LOCK_TIMEOUT_SECONDS}) as acquired`
          .execute(connection)
        if (Number(rows[0]?.acquired) !== 1) {
          throw new Error(`Gatehouse migrate: another migration held the lock for more than ${MYSQL_LOCK_TIMEOUT_SECONDS} s`)
        }
        try {
          return await fn(connection)
        } finally {
          await sql`select release_lock(${lockName})`.execute(connection)
        }
      })
    case 'sqlite':
      if (db.isTransaction) return fn(db)
      return db.connection().execute(async (connection) => {
        await sql`begin immediate`.execute(connection)
        try {
          const result = await fn(connection)
          await sql`commit`.execute(connection)
          return result
        } catch (error) {
          await sql`rollback`.execute(connection)
          throw error
        }
      })
  }
}

/** The lock is per database; hashed so a long database name stays within MySQL's 64-character lock names. */
const lockName = sql`concat('gatehouse:migrate:', md5(coalesce(database(), '')))`
