import Database from 'better-sqlite3'
import { Kysely, SqliteDialect, type LogEvent } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type Tables, type TestBackend } from '../../../test/kysely-backends.js'
import type { Adapter, Joins } from '../adapter.js'
import { coreSchema, mergeSchemas, type Schema } from '../schema.js'
import { kyselyAdapter } from './kysely-adapter.js'

const AT = new Date('2026-01-02T03:04:05.678Z')
const user = { id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: true, image: null, createdAt: AT, updatedAt: AT, credentialVersion: null }
const session = {
  id: 's1',
  userId: 'u1',
  token: 'hash-1',
  expiresAt: new Date('2026-01-09T03:04:05.678Z'),
  createdAt: AT,
  updatedAt: AT,
  ipAddress: '203.0.113.9',
  userAgent: null,
  amr: null,
}
const withUser: Joins = { user: { model: 'user', on: { field: 'userId', references: 'id' } } }

describe('kysely joins: one statement (sqlite)', () => {
  let queries: string[]
  let adapter: Adapter

  beforeEach(async () => {
    queries = []
    const db = new Kysely<Tables>({
      dialect: new SqliteDialect({ database: new Database(':memory:') }),
      log: (event: LogEvent) => {
        queries.push(event.query.sql)
      },
    })
    adapter = await kyselyAdapter({ db, dialect: 'sqlite', ownsConnection: true })({ schema: coreSchema })
    await adapter.migrate?.()
    await adapter.create({ model: 'user', data: user })
    await adapter.create({ model: 'session', data: session })
    queries = []
  })
  afterEach(() => adapter.close?.())

  it('findOne with a join runs exactly one query, a LEFT JOIN', async () => {
    const found = await adapter.findOne({ model: 'session', where: { field: 'token', value: 'hash-1' }, join: withUser })
    expect(found).toEqual({ ...session, user })
    expect(queries).toHaveLength(1)
    expect(queries[0]).toMatch(/^select .* from "session" as "t0" left join "user" as "t1" on "t1"\."id" = "t0"\."userId" where "t0"\."token" = \? limit 1$/)
  })

  it('findMany with a join runs exactly one query, whatever the number of rows', async () => {
    await adapter.create({ model: 'session', data: { ...session, id: 's2', token: 'hash-2' } })
    await adapter.create({ model: 'session', data: { ...session, id: 's3', token: 'hash-3' } })
    queries = []
    const rows = await adapter.findMany({ model: 'session', join: withUser, sortBy: { field: 'id', direction: 'desc' } })
    expect(rows.map((row) => [row.id, row.user])).toEqual([
      ['s3', user],
      ['s2', user],
      ['s1', user],
    ])
    expect(queries).toHaveLength(1)
  })

  it('an invalid join fails before any query is sent', async () => {
    const join: Joins = { token: { model: 'user', on: { field: 'userId', references: 'id' } } }
    await expect(adapter.findOne({ model: 'session', where: { field: 'id', value: 's1' }, join })).rejects.toThrow(
      'Invalid join "token" on model "session": the alias collides with the field "session.token"',
    )
    expect(queries).toEqual([])
  })
})

/** Names past PostgreSQL's 63-character identifier limit once combined as "<alias>__<column>". */
const longColumn = 'a_column_name_that_is_quite_long_on_purpose_for_identifiers'
const longAlias = 'an_alias_that_is_also_long_enough_to_overflow_an_identifier'
const schema: Schema = mergeSchemas(coreSchema, {
  note: {
    tableName: 'gh_join_note',
    fields: {
      authorId: { type: 'string', columnName: longColumn, references: { model: 'user', field: 'id', onDelete: 'cascade' } },
      body: { type: 'json' },
      stamp: { type: 'number', bigint: true },
    },
  },
})

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`kysely joins (${dialect})`, () => {
    let backend: TestBackend
    let adapter: Adapter

    beforeEach(async () => {
      backend = await createTestBackend(dialect)
      adapter = await backend.factory({ schema })
      await adapter.migrate?.()
    })
    afterEach(async () => {
      await adapter.close?.()
      await backend.drop()
    })

    it('maps joined columns back with long names, a renamed column and converted values', async () => {
      await adapter.create({ model: 'user', data: user })
      const note = { id: 'n1', authorId: 'u1', body: { tags: ['a', 'b'] }, stamp: 2 ** 40 + 3 }
      await adapter.create({ model: 'note', data: note })
      await adapter.create({ model: 'session', data: session })
      const join: Joins = { [longAlias]: { model: 'note', on: { field: 'userId', references: 'id' } } }
      // session.userId is not a note id: the join finds nothing and the session still comes back.
      expect(await adapter.findOne({ model: 'session', where: { field: 'id', value: 's1' }, join })).toEqual({ ...session, [longAlias]: null })
      const author: Joins = { [longAlias]: { model: 'user', on: { field: 'authorId', references: 'id' } } }
      expect(await adapter.findOne({ model: 'note', where: { field: 'authorId', value: 'u1' }, join: author })).toEqual({ ...note, [longAlias]: user })
    })

    it('joins inside a transaction see the transaction’s own writes', async () => {
      await adapter.transaction(async (tx) => {
        await tx.create({ model: 'user', data: user })
        await tx.create({ model: 'session', data: session })
        expect(await tx.findOne({ model: 'session', where: { field: 'id', value: 's1' }, join: withUser })).toEqual({ ...session, user })
      })
    })
  })
}
