import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, sql, SqliteDialect } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type Tables, type TestBackend } from '../../../test/kysely-backends.js'
import type { Adapter } from '../adapter.js'
import type { Schema } from '../schema.js'
import { kyselyAdapter } from './kysely-adapter.js'
import { sqliteAdapter } from './sqlite.js'

const schema: Schema = {
  event: {
    tableName: 'gh_event',
    fields: {
      name: { type: 'string' },
      at: { type: 'date', columnName: 'happened_at' },
      done: { type: 'boolean' },
      data: { type: 'json', required: false },
      stamp: { type: 'number', bigint: true },
      score: { type: 'number', required: false },
    },
  },
}

const AT = new Date('2026-01-02T03:04:05.678Z')
const event = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `event ${id}`,
  at: AT,
  done: true,
  data: { list: [1, 'two'] },
  stamp: 2 ** 40 + 1,
  score: 1.5,
  ...extra,
})

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`kysely adapter (${dialect})`, () => {
    let backend: TestBackend
    const opened: Adapter[] = []
    const open = async (): Promise<Adapter> => {
      const adapter = await backend.factory({ schema })
      opened.push(adapter)
      return adapter
    }

    beforeEach(async () => {
      backend = await createTestBackend(dialect)
      await (await open()).migrate?.()
    })
    afterEach(async () => {
      for (const adapter of opened.splice(0)) await adapter.close?.()
      await backend.drop()
    })

    it('stores values in the documented column formats', async () => {
      const adapter = await open()
      await adapter.create({ model: 'event', data: event('e1') })
      if (dialect === 'sqlite') {
        const { rows } = await sql<Record<string, unknown>>`select * from gh_event`.execute(backend.db)
        expect(rows[0]).toEqual({ id: 'e1', name: 'event e1', happened_at: '2026-01-02T03:04:05.678Z', done: 1, data: '{"list":[1,"two"]}', stamp: 2 ** 40 + 1, score: 1.5 })
      } else if (dialect === 'postgres') {
        const { rows } = await sql<Record<string, unknown>>`select * from gh_event`.execute(backend.db)
        // pg hands int8 back as text; the adapter turns it into a number.
        expect(rows[0]).toMatchObject({ happened_at: AT, done: true, data: '{"list":[1,"two"]}', stamp: String(2 ** 40 + 1) })
      } else {
        // The pool writes DATETIME in UTC, so the stored text is the UTC wall time.
        const { rows } = await sql<Record<string, unknown>>`select cast(happened_at as char) as at, done, data from gh_event`.execute(backend.db)
        expect(rows[0]).toEqual({ at: '2026-01-02 03:04:05.678', done: 1, data: '{"list":[1,"two"]}' })
      }
      expect(await adapter.findOne({ model: 'event', where: { field: 'id', value: 'e1' } })).toEqual(event('e1'))
    })

    it('ignores columns the schema does not know', async () => {
      const adapter = await open()
      await sql`alter table gh_event add column legacy integer`.execute(backend.db)
      await adapter.create({ model: 'event', data: event('e1') })
      expect(await adapter.findMany({ model: 'event' })).toEqual([event('e1')])
    })

    it('update can change the id and returns the row under its new id', async () => {
      const adapter = await open()
      await adapter.create({ model: 'event', data: event('e1') })
      const updated = await adapter.update({ model: 'event', where: { field: 'id', value: 'e1' }, update: { id: 'e2', done: false } })
      expect(updated).toEqual({ ...event('e1'), id: 'e2', done: false })
      expect(await adapter.count({ model: 'event' })).toBe(1)
    })

    it('update with nothing to change returns the first matching row unchanged', async () => {
      const adapter = await open()
      await adapter.create({ model: 'event', data: event('b') })
      await adapter.create({ model: 'event', data: event('a') })
      expect(await adapter.update({ model: 'event', where: { field: 'done', value: true }, update: {} })).toEqual(event('a'))
    })

    it('consume takes rows in id order', async () => {
      const adapter = await open()
      for (const id of ['c', 'a', 'b']) await adapter.create({ model: 'event', data: event(id) })
      const taken = []
      for (let i = 0; i < 4; i++) taken.push((await adapter.consume({ model: 'event', where: { field: 'done', value: true } }))?.id ?? null)
      expect(taken).toEqual(['a', 'b', 'c', null])
    })

    it('consume across separate connection pools: exactly one caller wins each row', async () => {
      const first = await open()
      const second = await open()
      for (const id of ['t1', 't2']) await first.create({ model: 'event', data: event(id, { name: 'token' }) })
      const where = { field: 'name', value: 'token' } as const
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, index) => (index % 2 === 0 ? first : second).consume({ model: 'event', where })),
      )
      const won = results.filter((row) => row !== null).map((row) => row.id)
      expect(won.sort()).toEqual(['t1', 't2'])
      expect(await first.count({ model: 'event' })).toBe(0)
    })

    it('a nested transaction call runs on the outer transaction', async () => {
      const adapter = await open()
      await adapter.transaction(async (tx) => {
        await tx.transaction(async (nested) => {
          expect(nested).toBe(tx)
          await nested.create({ model: 'event', data: event('e1') })
        })
        expect(await tx.count({ model: 'event' })).toBe(1)
      })
      expect(await adapter.count({ model: 'event' })).toBe(1)
    })

    it('rejects an invalid sort direction, limit or offset before reaching the database', async () => {
      const adapter = await open()
      const direction = JSON.parse('"sideways"') as 'asc'
      await expect(adapter.findMany({ model: 'event', sortBy: { field: 'name', direction } })).rejects.toThrow(TypeError)
      await expect(adapter.findMany({ model: 'event', limit: -1 })).rejects.toThrow(TypeError)
      await expect(adapter.findMany({ model: 'event', offset: 1.5 })).rejects.toThrow(TypeError)
    })

    if (dialect === 'postgres') {
      it('after a unique violation PostgreSQL refuses further statements in the same transaction', async () => {
        const adapter = await open()
        await adapter.create({ model: 'event', data: event('e1') })
        const outcome = adapter.transaction(async (tx) => {
          await tx.create({ model: 'event', data: event('e1') }).catch(() => undefined)
          // 25P02: current transaction is aborted. This is why callers catch UNIQUE_VIOLATION outside the transaction.
          return tx.count({ model: 'event' })
        })
        await expect(outcome).rejects.toMatchObject({ code: '25P02' })
        expect(await adapter.count({ model: 'event' })).toBe(1)
      })
    }
  })
}

describe('sqlite ownership', () => {
  let directory: string
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'gatehouse-sqlite-'))
  })
  afterEach(() => rmSync(directory, { recursive: true, force: true }))

  it('a path is opened in WAL mode and closed by close()', async () => {
    const path = join(directory, 'owned.db')
    const adapter = await sqliteAdapter(path)({ schema })
    await adapter.migrate?.()
    await adapter.create({ model: 'event', data: event('e1') })
    const observer = new Database(path)
    expect(observer.pragma('journal_mode', { simple: true })).toBe('wal')
    observer.close()
    await adapter.close?.()
    await expect(adapter.count({ model: 'event' })).rejects.toThrow()
  })

  it('a Database passed in keeps its settings and stays open after close()', async () => {
    const database = new Database(join(directory, 'given.db'))
    const adapter = await sqliteAdapter(database)({ schema })
    await adapter.migrate?.()
    await adapter.create({ model: 'event', data: event('e1') })
    await adapter.close?.()
    expect(database.open).toBe(true)
    expect(database.pragma('journal_mode', { simple: true })).toBe('delete')
    expect(database.prepare('select count(*) as n from gh_event').get()).toEqual({ n: 1 })
    database.close()
  })

  it('kyselyAdapter destroys the Kysely instance on close() only when it owns the connection', async () => {
    const shared = new Database(':memory:')
    const kept = await kyselyAdapter({ db: new Kysely<Tables>({ dialect: new SqliteDialect({ database: shared }) }), dialect: 'sqlite' })({ schema })
    await kept.close?.()
    expect(shared.open).toBe(true)
    const owned = await kyselyAdapter({
      db: new Kysely<Tables>({ dialect: new SqliteDialect({ database: shared }) }),
      dialect: 'sqlite',
      ownsConnection: true,
    })({ schema })
    await owned.migrate?.()
    await owned.close?.()
    expect(shared.open).toBe(false)
  })
})
