/**
 * The Drizzle adapter on MariaDB/MySQL over a mysql2 pool with one
 * connection (docs/adapters.md#using-drizzle):
 * - a Gatehouse transaction waiting on a row the application's own open
 *   transaction locked fails with `TRANSIENT` (1205) after `lockTimeout`,
 *   and the connection goes back to the pool with the session's own
 *   `innodb_lock_wait_timeout`;
 * - an idle connection killed on the server does not stop the process: the
 *   next call succeeds or fails with `TRANSIENT`, and the one after works.
 */
import { coreSchema, DatabaseError } from '@gatehouse/core'
import { drizzle } from 'drizzle-orm/mysql2'
import { createConnection, createPool, type RowDataPacket } from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { services } from '../../core/test/services.js'
import { createDrizzleAdapter } from '../src/index.js'
import { createDrizzleBackend, type DrizzleBackend } from './databases.js'

const at = new Date('2026-01-02T03:04:05.678Z')
const user = { id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: false, image: null, createdAt: at, updatedAt: at }

describe.skipIf(!services.mysql)('drizzle on mysql: locks and connections', () => {
  let backend: DrizzleBackend | undefined
  beforeAll(async () => {
    backend = await createDrizzleBackend('mysql', coreSchema)
  })
  afterAll(async () => {
    await backend?.drop()
  })

  async function onePool() {
    if (!backend) throw new Error('no backend')
    const pool = createPool({ uri: backend.location, connectionLimit: 1 })
    const adapter = createDrizzleAdapter(drizzle(pool), { provider: 'mysql', schema: backend.tables, lockTimeout: 1000 }, coreSchema)
    const session = async <T extends RowDataPacket>(query: string) => ((await pool.query<T[]>(query))[0][0] ?? {}) as T
    return { pool, adapter, session }
  }

  it('a transaction on a row the application locked fails with TRANSIENT, and the session keeps its own lock wait', async () => {
    const { pool, adapter, session } = await onePool()
    const app = await createConnection(backend?.location ?? '')
    try {
      await adapter.create({ model: 'user', data: user })
      const before = (await session('select @@session.innodb_lock_wait_timeout as wait')).wait
      await app.query('begin')
      await app.query('update `user` set name = ? where id = ?', ['App', 'u1'])
      const error = await adapter
        .transaction((tx) => tx.update({ model: 'user', where: { field: 'id', value: 'u1' }, update: { name: 'Gatehouse' } }))
        .catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(DatabaseError)
      expect(error).toMatchObject({ code: 'TRANSIENT', cause: { errno: 1205 } })
      await app.query('rollback')
      expect((await session('select @@session.innodb_lock_wait_timeout as wait')).wait).toBe(before)
      expect(await adapter.update({ model: 'user', where: { field: 'id', value: 'u1' }, update: { name: 'Gatehouse' } })).toMatchObject({ name: 'Gatehouse' })
    } finally {
      await app.end()
      await pool.end()
    }
  })

  it('an idle pooled connection killed on the server costs at most one TRANSIENT failure', async () => {
    const { pool, adapter, session } = await onePool()
    const operator = await createConnection(backend?.location ?? '')
    try {
      const { id } = await session<RowDataPacket & { id: number }>('select connection_id() as id')
      await operator.query(`kill ${Number(id)}`)
      const next = await adapter.count({ model: 'user' }).catch((caught: unknown) => caught)
      if (typeof next !== 'number') expect(next).toMatchObject({ name: 'DatabaseError', code: 'TRANSIENT' })
      expect(await adapter.count({ model: 'user' })).toBe(1)
    } finally {
      await operator.end()
      await pool.end()
    }
  })
})
