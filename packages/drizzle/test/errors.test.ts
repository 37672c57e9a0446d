/**
 * What the adapter throws when a query fails: core's `DatabaseError` for
 * what core's mapping knows (constraint violations, deadlocks, lost
 * connections: the conformance suite checks those), and otherwise an error
 * naming the SQL without its parameters, which hold emails and password
 * hashes that must not reach a log line. And what it refuses at start.
 */
import { coreSchema, DatabaseError } from '@gatehouse/core'
import Database from 'better-sqlite3'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDrizzleAdapter } from '../src/index.js'
import { createDrizzleBackend, dialects, type DrizzleBackend } from './databases.js'

const at = new Date('2026-01-02T03:04:05.678Z')
const user = { id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: false, image: null, createdAt: at, updatedAt: at }

describe('a failed query', () => {
  let backend: DrizzleBackend | undefined
  beforeAll(async () => {
    backend = await createDrizzleBackend('sqlite', coreSchema)
  })
  afterAll(async () => {
    await backend?.drop()
  })

  it('on SQLite is the driver error, which holds no values', async () => {
    if (!backend) throw new Error('no backend')
    // The tables, on a database nobody migrated: better-sqlite3 fails while preparing, before any value is bound.
    const empty = new Database(':memory:')
    const adapter = createDrizzleAdapter(drizzle(empty), { provider: 'sqlite', schema: backend.tables }, coreSchema)
    const error = await adapter.create({ model: 'user', data: user }).catch((caught: unknown) => caught)
    empty.close()
    expect(error).not.toBeInstanceOf(DatabaseError)
    expect(error).toMatchObject({ code: 'SQLITE_ERROR', message: 'no such table: user' })
  })

  it('that breaks a unique index is a DatabaseError with the code core answers on', async () => {
    if (!backend) throw new Error('no backend')
    const adapter = createDrizzleAdapter(backend.db, { provider: 'sqlite', schema: backend.tables }, coreSchema)
    await adapter.create({ model: 'user', data: user })
    await expect(adapter.create({ model: 'user', data: { ...user, id: 'u2' } })).rejects.toMatchObject({ name: 'DatabaseError', code: 'UNIQUE_VIOLATION' })
  })

  it('refuses a schema module without a table or column for a field', () => {
    if (!backend) throw new Error('no backend')
    const { session: _session, ...withoutSession } = backend.tables
    expect(() => createDrizzleAdapter(backend!.db, { provider: 'sqlite', schema: withoutSession }, coreSchema)).toThrow(
      'The Drizzle schema has no table for the model "session": run `gatehouse generate --format drizzle` again (docs/adapters.md#using-drizzle)',
    )
    const extended = { ...coreSchema, user: { fields: { ...coreSchema.user.fields, plan: { type: 'string' as const } } } }
    expect(() => createDrizzleAdapter(backend!.db, { provider: 'sqlite', schema: backend!.tables }, extended)).toThrow(
      'The Drizzle table for "user" has no column under the key "plan": run `gatehouse generate --format drizzle` again (docs/adapters.md#using-drizzle)',
    )
  })
})

for (const { dialect, enabled } of dialects.filter(({ dialect }) => dialect !== 'sqlite')) {
  describe.skipIf(!enabled)(`a failed query on ${dialect}`, () => {
    let backend: DrizzleBackend | undefined
    beforeAll(async () => {
      backend = await createDrizzleBackend(dialect, coreSchema)
    })
    afterAll(async () => {
      await backend?.drop()
    })

    it('names the SQL and the driver error, never the values', async () => {
      if (!backend) throw new Error('no backend')
      const adapter = createDrizzleAdapter(backend.db, { provider: backend.provider, schema: backend.tables }, coreSchema)
      await adapter.create({ model: 'user', data: user })
      await adapter.deleteMany({ model: 'session', where: { field: 'id', operator: 'ne', value: '' } })
      // A table dropped under the running server: Drizzle fails while executing, with the values bound.
      await looseExecute(backend.db, dialect === 'mysql' ? 'drop table `session`' : 'drop table "session"')
      const session = { id: 's1', userId: 'u1', token: 'secret-token-hash', expiresAt: at, createdAt: at, updatedAt: at, ipAddress: null, userAgent: null }
      const error = await adapter.create({ model: 'session', data: session }).catch((caught: unknown) => caught)
      expect(error).not.toBeInstanceOf(DatabaseError)
      const { message, cause } = error as Error
      expect(message).toMatch(/^Failed query on "session": .*session.*\ninsert into [`"]session[`"]/)
      expect(message).not.toContain('secret-token-hash')
      expect(cause).toBeInstanceOf(Error)
    })
  })
}

/** Runs raw SQL on a Drizzle database of either server driver. */
async function looseExecute(db: DrizzleBackend['db'], statement: string): Promise<void> {
  const execute: unknown = Reflect.get(db, 'execute')
  if (typeof execute !== 'function') throw new Error('not a server database')
  await execute.call(db, sql.raw(statement))
}

