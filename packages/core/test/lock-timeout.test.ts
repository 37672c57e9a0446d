/**
 * A Gatehouse write on a row that the application's own open transaction
 * locked fails with 503 and Retry-After once `lockTimeout` has passed,
 * instead of waiting for a lock that is only released after it returns
 * (docs/adapters.md#transactions); the stored row keeps the application's
 * write, and the same call works once the application's transaction ends.
 * On PostgreSQL (lock_timeout, 55P03) and MariaDB/MySQL
 * (innodb_lock_wait_timeout, 1205). `kyselyAdapter` over your own Kysely
 * bounds the waits of Gatehouse's transactions, and on MySQL gives the
 * connection back with the session's own setting.
 */
import { Kysely, MysqlDialect, PostgresDialect } from 'kysely'
import { createPool } from 'mysql2'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { DatabaseError, type AdapterFactory } from '../src/db/adapter.js'
import { coreSchema } from '../src/db/schema.js'
import { kyselyAdapter } from '../src/db/kysely/kysely-adapter.js'
import { mysqlAdapter } from '../src/db/kysely/mysql.js'
import { postgresAdapter } from '../src/db/kysely/postgres.js'
import { runMigrations } from '../src/migrations/run-migrations.js'
import { faultAuth, serviceUnavailable, signUp } from './fault-support.js'
import { mysqlDatabase, postgresSchema } from './private-servers.js'
import { services } from './services.js'

/** The application's side: a transaction it opens, a write in it, and its end. */
interface AppTransaction {
  lockUser(email: string): Promise<void>
  rollback(): Promise<void>
  close(): Promise<void>
}

async function expectBoundedWait(database: AdapterFactory, app: AppTransaction) {
  const { auth } = faultAuth({ database, rateLimit: { enabled: false } })
  try {
    await runMigrations(auth)
    const response = await auth.handler(signUp('locked@example.com'))
    expect(response.status).toBe(200)
    const cookie = response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
    await app.lockUser('locked@example.com')
    try {
      await expect(auth.api.updateUser({ headers: new Headers({ cookie }), body: { name: 'Gatehouse' } })).rejects.toMatchObject(serviceUnavailable)
    } finally {
      await app.rollback()
    }
    await expect(auth.api.updateUser({ headers: new Headers({ cookie }), body: { name: 'Gatehouse' } })).resolves.toMatchObject({ status: true })
    const { adapter } = await auth.$context
    expect(await adapter.findOne({ model: 'user', where: { field: 'email', value: 'locked@example.com' } })).toMatchObject({ name: 'Gatehouse' })
  } finally {
    await app.close()
    await auth.close()
  }
}

describe.skipIf(!services.postgres)('lockTimeout on PostgreSQL (postgresAdapter)', () => {
  it('auth.api.updateUser on a row the application locked answers 503 with Retry-After', async () => {
    const admin = await postgresSchema(services.postgres ?? '')
    const client = new pg.Client({ connectionString: services.postgres })
    await client.connect()
    try {
      await expectBoundedWait(postgresAdapter(services.postgres ?? '', { schema: admin.schema, lockTimeout: 300 }), {
        async lockUser(email) {
          await client.query('begin')
          await client.query(`update "${admin.schema}"."user" set name = 'App' where email = $1`, [email])
        },
        rollback: async () => void (await client.query('rollback')),
        close: async () => client.end(),
      })
    } finally {
      await admin.drop()
    }
  })

  it('refuses a lockTimeout that is not a whole number of milliseconds', () => {
    expect(() => postgresAdapter('postgres://localhost/app', { lockTimeout: 1.5 })({ schema: {} })).toThrow(
      "postgresAdapter: lockTimeout must be a whole number of milliseconds (0 for the server's setting), not 1.5",
    )
  })
})

/** An update in a Gatehouse transaction on the row the application holds, through `kyselyAdapter` over `db`. */
async function transactionOnLockedRow(db: Kysely<Record<string, Record<string, unknown>>>, dialect: 'postgres' | 'mysql', app: AppTransaction) {
  const adapter = await kyselyAdapter({ db, dialect, lockTimeout: 1000 })({ schema: coreSchema })
  await adapter.migrate?.()
  await adapter.create({ model: 'user', data: { id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: false, createdAt: new Date(), updatedAt: new Date() } })
  await app.lockUser('ada@example.com')
  try {
    return await adapter.transaction((tx) => tx.update({ model: 'user', where: { field: 'id', value: 'u1' }, update: { name: 'Gatehouse' } })).catch((caught: unknown) => caught)
  } finally {
    await app.rollback()
  }
}

describe.skipIf(!services.postgres)('lockTimeout on PostgreSQL (kyselyAdapter)', () => {
  it("a Gatehouse transaction on a row the application locked fails with TRANSIENT (lock_not_available)", async () => {
    const admin = await postgresSchema(services.postgres ?? '')
    const client = new pg.Client({ connectionString: services.postgres })
    await client.connect()
    const pool = new pg.Pool({ connectionString: services.postgres, options: `-c search_path=${admin.schema}` })
    const db = new Kysely<Record<string, Record<string, unknown>>>({ dialect: new PostgresDialect({ pool }) })
    try {
      const error = await transactionOnLockedRow(db, 'postgres', {
        async lockUser(email) {
          await client.query('begin')
          await client.query(`update "${admin.schema}"."user" set name = 'App' where email = $1`, [email])
        },
        rollback: async () => void (await client.query('rollback')),
        close: async () => undefined,
      })
      expect(error).toBeInstanceOf(DatabaseError)
      expect(error).toMatchObject({ code: 'TRANSIENT', cause: { code: '55P03' } })
    } finally {
      await db.destroy()
      await client.end()
      await admin.drop()
    }
  })
})

describe.skipIf(!services.mysql)('lockTimeout on MariaDB/MySQL (kyselyAdapter)', () => {
  it("a Gatehouse transaction on a row the application locked fails with TRANSIENT, and the session keeps its own lock wait", async () => {
    const database = await mysqlDatabase(services.mysql ?? '')
    const connection = await mysql.createConnection({ uri: database.url })
    // One connection, so the setting read afterwards is the one the transaction ran on.
    const pool = createPool({ uri: database.url, timezone: 'Z', connectionLimit: 1 })
    const db = new Kysely<Record<string, Record<string, unknown>>>({ dialect: new MysqlDialect({ pool }) })
    const wait = async () => (await pool.promise().query<mysql.RowDataPacket[]>('select @@session.innodb_lock_wait_timeout as wait'))[0][0]?.wait
    try {
      const before = await wait()
      const error = await transactionOnLockedRow(db, 'mysql', {
        async lockUser(email) {
          await connection.query('begin')
          await connection.query('update `user` set name = ? where email = ?', ['App', email])
        },
        rollback: async () => void (await connection.query('rollback')),
        close: async () => undefined,
      })
      expect(error).toBeInstanceOf(DatabaseError)
      expect(error).toMatchObject({ code: 'TRANSIENT', cause: { errno: 1205 } })
      expect(await wait()).toBe(before)
    } finally {
      await db.destroy()
      await connection.end()
      await database.drop()
    }
  })
})

describe.skipIf(!services.mysql)('lockTimeout on MariaDB/MySQL (mysqlAdapter)', () => {
  it('auth.api.updateUser on a row the application locked answers 503 with Retry-After', async () => {
    const database = await mysqlDatabase(services.mysql ?? '')
    const connection = await mysql.createConnection({ uri: database.url })
    try {
      await expectBoundedWait(mysqlAdapter(database.url, { lockTimeout: 1000 }), {
        async lockUser(email) {
          await connection.query('begin')
          await connection.query('update `user` set name = ? where email = ?', ['App', email])
        },
        rollback: async () => void (await connection.query('rollback')),
        close: async () => connection.end(),
      })
    } finally {
      await database.drop()
    }
  })
})
