/**
 * The Drizzle adapter on PostgreSQL when connections end, when reads page
 * through a table, and when a row is locked by the application's own open
 * transaction (docs/adapters.md#using-drizzle):
 * - a node-postgres pool passed in survives `pg_terminate_backend` of its
 *   idle clients (the adapter listens for the pool's `error` event), a
 *   write whose backend is terminated fails with `TRANSIENT` (503 with
 *   Retry-After), and the next request works;
 * - 700 reads at offsets 0..699 and `in` lists of 1..100 values leave a
 *   handful of prepared statements on the connection, not one per page;
 * - a Gatehouse write waiting on a row lock held elsewhere fails with
 *   `TRANSIENT` (503 with Retry-After) after `lockTimeout`, on node-postgres
 *   and postgres-js, instead of waiting forever.
 */
import type { Schema } from '@gatehouse/core'
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { faultAuth, serviceUnavailable, signUp } from '../../core/test/fault-support.js'
import { until } from '../../core/test/private-servers.js'
import { services } from '../../core/test/services.js'
import { createDrizzleAdapter, drizzleAdapter, type Driver } from '../src/index.js'
import { createDrizzleBackend, type DrizzleBackend } from './databases.js'

const opened: DrizzleBackend[] = []
afterEach(async () => {
  for (const backend of opened.splice(0)) await backend.drop()
})

async function backendFor(schema: Schema, driver: Driver = 'node-postgres'): Promise<DrizzleBackend> {
  const backend = await createDrizzleBackend('postgres', schema, driver)
  opened.push(backend)
  return backend
}

/** An auth on the Drizzle adapter, over a database made for the schema it merges; `backend()` once it asked for it. */
function authOn(driver: Driver, options: { lockTimeout?: number } = {}) {
  let made: DrizzleBackend | undefined
  const { auth, logs } = faultAuth({
    database: async ({ schema }) => {
      made = await backendFor(schema, driver)
      return createDrizzleAdapter(made.db, { provider: 'pg', schema: made.tables, ...options }, schema)
    },
    rateLimit: { enabled: false },
  })
  const backend = async () => {
    await auth.$context
    if (!made) throw new Error('the adapter was not made')
    return made
  }
  return { auth, logs, backend }
}

/** A client on the same database, outside the adapter's pool: the application's, or an operator's. */
async function sideClient(location: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: location })
  await client.connect()
  return client
}

describe.skipIf(!services.postgres)('drizzle on postgres: connections that end', () => {
  it('a passed-in node-postgres pool survives its idle clients being terminated, and the next request works', async () => {
    const { auth, backend: made } = authOn('node-postgres')
    const backend = await made()
    const pool: unknown = Reflect.get(backend.db, '$client')
    if (!(pool instanceof pg.Pool)) throw new Error('expected a pg pool')
    expect(pool.listenerCount('error')).toBe(1)
    expect((await Promise.all([1, 2, 3].map((n) => auth.handler(signUp(`idle${n}@example.com`))))).map((response) => response.status)).toEqual([200, 200, 200])
    const idle = pool.idleCount
    expect(idle).toBeGreaterThan(0)
    // Counted with a plain listener: `events.once` would also listen for 'error', which is what the adapter must do itself.
    let left = idle
    const removed = new Promise<void>((resolve) => pool.on('remove', () => --left === 0 && resolve()))
    const operator = await sideClient(backend.location)
    try {
      const { rowCount } = await operator.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
      expect(rowCount).toBe(idle)
      // Each terminated idle client is reported as an 'error' on the pool, then removed: unlistened, the first would end the process.
      await removed
      expect(pool.totalCount).toBe(0)
      expect((await auth.handler(signUp('after@example.com'))).status).toBe(200)
    } finally {
      await operator.end()
    }
  })

  it('a write whose backend is terminated while it waits fails with the TRANSIENT DatabaseError (503 with Retry-After), and the next request works', async () => {
    const { auth, backend: made } = authOn('node-postgres', { lockTimeout: 0 })
    expect((await auth.handler(signUp('busy@example.com'))).status).toBe(200)
    const backend = await made()
    const adapter = createDrizzleAdapter(backend.db, { provider: 'pg', schema: backend.tables, lockTimeout: 0 }, (await auth.$context).adapter.schema)
    const app = await sideClient(backend.location)
    const operator = await sideClient(backend.location)
    try {
      // The application holds the row, so Gatehouse's update waits on it, in flight, until its backend is terminated.
      await app.query('begin')
      await app.query(`update "user" set name = 'App' where email = 'busy@example.com'`)
      const pending = adapter.update({ model: 'user', where: { field: 'email', value: 'busy@example.com' }, update: { name: 'Gatehouse' } }).catch((error: unknown) => error)
      const waiting = async () => {
        const { rows } = await operator.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)
        return rows[0]?.pid
      }
      await until(async () => (await waiting()) !== undefined)
      await operator.query('select pg_terminate_backend($1)', [await waiting()])
      expect(await pending).toMatchObject({ name: 'DatabaseError', code: 'TRANSIENT' })
      await app.query('rollback')
      expect((await auth.handler(signUp('next@example.com'))).status).toBe(200)
    } finally {
      await app.end()
      await operator.end()
    }
  })
})

describe.skipIf(!services.postgres)('drizzle on postgres: prepared statements', () => {
  it('700 pages at offsets 0..699 and in-lists of 1..100 values leave a bounded number on the connection', async () => {
    const { auth, backend: made } = authOn('node-postgres')
    for (const n of [1, 2, 3]) expect((await auth.handler(signUp(`page${n}@example.com`))).status).toBe(200)
    const backend = await made()
    // One connection, so every read and the count below share it.
    const pool = new pg.Pool({ connectionString: backend.location, max: 1 })
    try {
      const adapter = createDrizzleAdapter(drizzle(pool), { provider: 'pg', schema: backend.tables }, (await auth.$context).adapter.schema)
      const emails = ['page1@example.com', 'page2@example.com', 'page3@example.com']
      for (let offset = 0; offset < 700; offset++) {
        const page = await adapter.findMany({ model: 'user', sortBy: { field: 'email', direction: 'asc' }, limit: 1, offset })
        expect(page.map((row) => row.email)).toEqual(offset < 3 ? [emails[offset]] : [])
      }
      for (let size = 1; size <= 100; size++) {
        const list = Array.from({ length: size }, (_, index) => `page${index + 1}@example.com`)
        expect(await adapter.count({ model: 'user', where: { field: 'email', operator: 'in', value: list } })).toBe(Math.min(size, 3))
      }
      const { rows } = await pool.query<{ total: string }>('select count(*) as total from pg_prepared_statements')
      // The paged read with and without an offset, and one count per power of two up to 128 (8): not one statement per page or list length.
      expect(Number(rows[0]?.total)).toBe(10)
    } finally {
      await pool.end()
    }
  })
})

for (const driver of ['node-postgres', 'postgres-js'] as const) {
  describe.skipIf(!services.postgres)(`drizzle on postgres (${driver}): a row locked by the application's transaction`, () => {
    async function lockedByApp(email: string) {
      const { auth, backend: made } = authOn(driver, { lockTimeout: 300 })
      const response = await auth.handler(signUp(email))
      expect(response.status).toBe(200)
      const cookie = response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
      const backend = await made()
      const app = await sideClient(backend.location)
      await app.query('begin')
      await app.query(`update "user" set name = 'App' where email = $1`, [email])
      return { auth, backend, app, cookie }
    }

    it('auth.api.updateUser fails with 503 and Retry-After after lockTimeout instead of waiting forever', async () => {
      const { auth, app, cookie } = await lockedByApp('locked@example.com')
      try {
        await expect(auth.api.updateUser({ headers: new Headers({ cookie }), body: { name: 'Gatehouse' } })).rejects.toMatchObject(serviceUnavailable)
      } finally {
        await app.query('rollback')
        await app.end()
      }
      await expect(auth.api.updateUser({ headers: new Headers({ cookie }), body: { name: 'Gatehouse' } })).resolves.toMatchObject({ status: true })
    })

    it('an update inside a Gatehouse transaction fails with the TRANSIENT DatabaseError (lock_not_available)', async () => {
      const { auth, app } = await lockedByApp('locked-tx@example.com')
      try {
        const { adapter } = await auth.$context
        const error = await adapter
          .transaction((tx) => tx.update({ model: 'user', where: { field: 'email', value: 'locked-tx@example.com' }, update: { name: 'Gatehouse' } }))
          .catch((caught: unknown) => caught)
        expect(error).toMatchObject({ name: 'DatabaseError', code: 'TRANSIENT', cause: { code: '55P03' } })
      } finally {
        await app.query('rollback')
        await app.end()
      }
    })
  })
}
