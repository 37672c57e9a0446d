/**
 * @module
 * Conformance cases for constraints. Core turns `UNIQUE_VIOLATION` into
 * "User already exists" and relies on the database, not a read-then-write
 * check, to stop two concurrent sign-ups with one email; foreign keys keep
 * sessions from outliving their user (docs/core.md#tables).
 */
import { DatabaseError } from '../../db/adapter.js'
import { equal, fail, rejectsWithCode, rowEqual, sameIds } from './assert.js'
import { ITEM, itemRow, sessionRow, userRow } from './fixtures.js'
import type { CaseDefinition } from './types.js'

const byId = (id: string) => ({ field: 'id', value: id }) as const

export const constraintCases: readonly CaseDefinition[] = [
  {
    name: 'a unique violation throws UNIQUE_VIOLATION and keeps the original row',
    async body({ adapter }) {
      await adapter.create({ model: ITEM, data: itemRow('item-1', { slug: 'taken', title: 'Original' }) })
      await rejectsWithCode(adapter.create({ model: ITEM, data: itemRow('item-2', { slug: 'taken', title: 'Intruder' }) }), 'UNIQUE_VIOLATION', 'duplicate slug')
      await rejectsWithCode(adapter.create({ model: ITEM, data: itemRow('item-1', { slug: 'other' }) }), 'UNIQUE_VIOLATION', 'duplicate id')
      sameIds(await adapter.findMany({ model: ITEM }), ['item-1'], 'rows after the failed creates')
      rowEqual(await adapter.findOne({ model: ITEM, where: { field: 'slug', value: 'taken' } }), itemRow('item-1', { slug: 'taken', title: 'Original' }), 'the original row')
      await adapter.create({ model: 'user', data: userRow('ada', { email: 'ada@example.com' }) })
      await rejectsWithCode(adapter.create({ model: 'user', data: userRow('ada-2', { email: 'ada@example.com' }) }), 'UNIQUE_VIOLATION', 'duplicate user email')
    },
  },
  {
    name: 'updating to a taken unique value throws UNIQUE_VIOLATION and changes nothing',
    async body({ adapter }) {
      await adapter.create({ model: ITEM, data: itemRow('item-1', { slug: 'one' }) })
      await adapter.create({ model: ITEM, data: itemRow('item-2', { slug: 'two' }) })
      await rejectsWithCode(adapter.update({ model: ITEM, where: byId('item-2'), update: { slug: 'one', title: 'x' } }), 'UNIQUE_VIOLATION', 'update()')
      // One statement, two rows given the same slug: the whole statement fails.
      await rejectsWithCode(adapter.updateMany({ model: ITEM, where: { field: 'rank', value: 0 }, update: { slug: 'three' } }), 'UNIQUE_VIOLATION', 'updateMany()')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), itemRow('item-1', { slug: 'one' }), 'item-1')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-2') }), itemRow('item-2', { slug: 'two' }), 'item-2')
      rowEqual(await adapter.update({ model: ITEM, where: byId('item-1'), update: { slug: 'one' } }), itemRow('item-1', { slug: 'one' }), 'setting a row to its own unique value')
    },
  },
  {
    name: 'a nullable unique field allows several nulls',
    async body({ adapter }) {
      for (const id of ['item-1', 'item-2', 'item-3']) await adapter.create({ model: ITEM, data: itemRow(id, { code: null }) })
      await adapter.create({ model: ITEM, data: itemRow('item-4', { code: 'C-1' }) })
      equal(await adapter.count({ model: ITEM, where: { field: 'code', value: null } }), 3, 'rows with a null code')
      await rejectsWithCode(adapter.create({ model: ITEM, data: itemRow('item-5', { code: 'C-1' }) }), 'UNIQUE_VIOLATION', 'a duplicate non-null code')
    },
  },
  {
    name: 'unique constraints compare exact, case-sensitive values',
    async body({ adapter }) {
      await adapter.create({ model: ITEM, data: itemRow('item-1', { slug: 'Mixed' }) })
      await adapter.create({ model: ITEM, data: itemRow('item-2', { slug: 'mixed' }) })
      sameIds(await adapter.findMany({ model: ITEM, where: { field: 'slug', value: 'mixed', insensitive: true } }), ['item-1', 'item-2'], 'both slugs stored')
    },
  },
  {
    name: '20 concurrent creates with one unique value: exactly one succeeds',
    async body({ adapter }) {
      const attempts = Array.from({ length: 20 }, (_, index) => adapter.create({ model: ITEM, data: itemRow(`item-${index}`, { slug: 'race' }) }))
      const results = await Promise.allSettled(attempts)
      const winners = results.filter((result) => result.status === 'fulfilled')
      equal(winners.length, 1, 'successful creates')
      for (const result of results) {
        if (result.status === 'fulfilled') continue
        const error: unknown = result.reason
        if (!(error instanceof DatabaseError) || error.code !== 'UNIQUE_VIOLATION') {
          fail(`a losing create must reject with DatabaseError UNIQUE_VIOLATION, received ${String(error)}`)
        }
      }
      equal(await adapter.count({ model: ITEM, where: { field: 'slug', value: 'race' } }), 1, 'stored rows')
    },
  },
  {
    name: 'a missing required field throws NOT_NULL_VIOLATION',
    async body({ adapter }) {
      const { title: _omitted, ...withoutTitle } = itemRow('item-1')
      await rejectsWithCode(adapter.create({ model: ITEM, data: withoutTitle }), 'NOT_NULL_VIOLATION', 'create() without title')
      await rejectsWithCode(adapter.create({ model: ITEM, data: itemRow('item-1', { title: null }) }), 'NOT_NULL_VIOLATION', 'create() with title null')
      equal(await adapter.count({ model: ITEM }), 0, 'no row was created')
      await adapter.create({ model: ITEM, data: itemRow('item-1') })
      await rejectsWithCode(adapter.update({ model: ITEM, where: byId('item-1'), update: { title: null } }), 'NOT_NULL_VIOLATION', 'update() to null')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), itemRow('item-1'), 'the row is unchanged')
    },
  },
  {
    name: 'deleting a user cascades to its sessions and owned rows',
    async body({ adapter }) {
      for (const id of ['ada', 'bob', 'cy']) await adapter.create({ model: 'user', data: userRow(id) })
      await adapter.create({ model: 'session', data: sessionRow('s-ada-1', 'ada') })
      await adapter.create({ model: 'session', data: sessionRow('s-ada-2', 'ada') })
      await adapter.create({ model: 'session', data: sessionRow('s-bob', 'bob') })
      await adapter.create({ model: 'session', data: sessionRow('s-cy', 'cy') })
      await adapter.create({ model: ITEM, data: itemRow('item-ada', { ownerId: 'ada' }) })
      await adapter.create({ model: ITEM, data: itemRow('item-bob', { ownerId: 'bob' }) })
      await adapter.delete({ model: 'user', where: byId('ada') })
      sameIds(await adapter.findMany({ model: 'session' }), ['s-bob', 's-cy'], 'sessions after deleting ada')
      sameIds(await adapter.findMany({ model: ITEM }), ['item-bob'], 'items after deleting ada')
      equal(await adapter.deleteMany({ model: 'user', where: byId('bob') }), 1, 'deleteMany() of bob')
      sameIds(await adapter.findMany({ model: 'session' }), ['s-cy'], 'sessions after deleting bob')
      equal(await adapter.count({ model: ITEM }), 0, 'items after deleting bob')
    },
  },
  {
    name: 'onDelete set null clears the reference and keeps the row',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('ada') })
      await adapter.create({ model: 'user', data: userRow('bob') })
      await adapter.create({ model: ITEM, data: itemRow('item-1', { reviewerId: 'ada' }) })
      await adapter.create({ model: ITEM, data: itemRow('item-2', { reviewerId: 'bob' }) })
      await adapter.delete({ model: 'user', where: byId('ada') })
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), itemRow('item-1', { reviewerId: null }), 'item-1')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-2') }), itemRow('item-2', { reviewerId: 'bob' }), 'item-2')
    },
  },
  {
    name: 'a dangling reference throws FOREIGN_KEY_VIOLATION',
    async body({ adapter }) {
      await rejectsWithCode(adapter.create({ model: 'session', data: sessionRow('s-1', 'nobody') }), 'FOREIGN_KEY_VIOLATION', 'session for a missing user')
      equal(await adapter.count({ model: 'session' }), 0, 'no session was created')
      await adapter.create({ model: 'user', data: userRow('ada') })
      await adapter.create({ model: ITEM, data: itemRow('item-1', { ownerId: 'ada' }) })
      await rejectsWithCode(adapter.update({ model: ITEM, where: byId('item-1'), update: { ownerId: 'nobody' } }), 'FOREIGN_KEY_VIOLATION', 'update() to a missing user')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), itemRow('item-1', { ownerId: 'ada' }), 'the row is unchanged')
    },
  },
]
