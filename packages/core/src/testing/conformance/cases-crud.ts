/**
 * @module
 * Conformance cases for the basic operations: values survive a round trip
 * with their types, missing rows read as null, returned rows are copies,
 * unknown fields are refused, and update/delete touch exactly what they say.
 */
import type { Row } from '../../db/adapter.js'
import { equal, rejects, rowEqual, sameIds } from './assert.js'
import { fullItemRow, ITEM, itemRow, userRow, verificationRow } from './fixtures.js'
import type { CaseDefinition } from './types.js'

const byId = (id: string) => ({ field: 'id', value: id }) as const

export const crudCases: readonly CaseDefinition[] = [
  {
    name: 'create returns the stored row with every field type intact',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('user-1') })
      const created = await adapter.create({ model: ITEM, data: fullItemRow('item-1', 'user-1') })
      rowEqual(created, fullItemRow('item-1', 'user-1'), 'create() must return every field by field name with its type')
    },
  },
  {
    name: 'findOne round-trips every field type exactly',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('user-1') })
      const rows: Row[] = [
        fullItemRow('item-full', 'user-1'),
        itemRow('item-nulls'),
        itemRow('item-edges', {
          rank: 2_147_483_647,
          big: Number.MAX_SAFE_INTEGER,
          active: false,
          // Before 1970 and with milliseconds: catches second-precision and unsigned timestamp columns.
          happenedAt: new Date('1969-07-20T20:17:40.123Z'),
          // An empty string is a value, not a null.
          note: '',
          payload: [1, { deep: ['x', null] }, 'three'],
          dueAt: new Date('2999-12-31T23:59:59.999Z'),
        }),
        itemRow('item-negative', { big: -(2 ** 40), rank: -1, payload: {} }),
      ]
      for (const row of rows) await adapter.create({ model: ITEM, data: row })
      for (const row of rows) {
        rowEqual(await adapter.findOne({ model: ITEM, where: byId(String(row.id)) }), row, `findOne(${String(row.id)})`)
      }
      const user = await adapter.findOne({ model: 'user', where: byId('user-1') })
      rowEqual(user, userRow('user-1'), 'findOne(user-1)')
    },
  },
  {
    name: 'omitted optional fields read back as null',
    async body({ adapter }) {
      const { payload, note, code, ownerId, reviewerId, dueAt, ...required } = itemRow('item-1')
      equal([payload, note, code, ownerId, reviewerId, dueAt], [null, null, null, null, null, null], 'fixture sanity')
      const created = await adapter.create({ model: ITEM, data: required })
      rowEqual(created, itemRow('item-1'), 'create() without optional fields')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), itemRow('item-1'), 'findOne() of that row')
    },
  },
  {
    name: 'findOne returns null when nothing matches',
    async body({ adapter }) {
      equal(await adapter.findOne({ model: ITEM, where: byId('missing') }), null, 'findOne on an empty model')
      await adapter.create({ model: ITEM, data: itemRow('item-1') })
      equal(await adapter.findOne({ model: ITEM, where: byId('missing') }), null, 'findOne with no matching row')
      equal(await adapter.findOne({ model: ITEM, where: { field: 'title', value: 'nope' } }), null, 'findOne by another field')
    },
  },
  {
    name: 'returned rows are copies: mutating them or the input changes nothing stored',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('user-1') })
      const input = fullItemRow('item-1', 'user-1')
      const created = await adapter.create({ model: ITEM, data: input })
      mutate(input)
      mutate(created)
      const found = await adapter.findOne({ model: ITEM, where: byId('item-1') })
      rowEqual(found, fullItemRow('item-1', 'user-1'), 'row after mutating the input and the created row')
      if (found) mutate(found)
      const [listed] = await adapter.findMany({ model: ITEM })
      if (listed) mutate(listed)
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), fullItemRow('item-1', 'user-1'), 'row after mutating read rows')
    },
  },
  {
    name: 'create rejects a field the schema does not define',
    async body({ adapter }) {
      await rejects(adapter.create({ model: ITEM, data: { ...itemRow('item-1'), notAField: 'x' } }), 'create() with an unknown field')
      equal(await adapter.count({ model: ITEM }), 0, 'no row is left behind')
    },
  },
  {
    name: 'a where clause on an unknown field rejects instead of matching everything',
    async body({ adapter }) {
      await adapter.create({ model: ITEM, data: itemRow('item-1') })
      const where = { field: 'notAField', value: 'x' }
      await rejects(adapter.findMany({ model: ITEM, where }), 'findMany()')
      await rejects(adapter.findOne({ model: ITEM, where }), 'findOne()')
      await rejects(adapter.count({ model: ITEM, where }), 'count()')
      await rejects(adapter.updateMany({ model: ITEM, where, update: { rank: 1 } }), 'updateMany()')
      await rejects(adapter.deleteMany({ model: ITEM, where }), 'deleteMany()')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), itemRow('item-1'), 'the row is untouched')
    },
  },
  {
    name: 'update changes only the given fields and returns the updated row',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('user-1') })
      await adapter.create({ model: ITEM, data: fullItemRow('item-1', 'user-1') })
      await adapter.create({ model: ITEM, data: itemRow('item-2') })
      const change = { title: 'Changed', active: false, big: 2 ** 41, happenedAt: new Date('2027-05-06T07:08:09.010Z'), payload: ['a', 1], note: null }
      const expected = { ...fullItemRow('item-1', 'user-1'), ...change }
      rowEqual(await adapter.update({ model: ITEM, where: byId('item-1'), update: change }), expected, 'update() return value')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), expected, 'the stored row')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-2') }), itemRow('item-2'), 'the other row')
    },
  },
  {
    name: 'update returns null when nothing matches',
    async body({ adapter }) {
      await adapter.create({ model: ITEM, data: itemRow('item-1') })
      equal(await adapter.update({ model: ITEM, where: byId('missing'), update: { title: 'x' } }), null, 'update() of a missing row')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), itemRow('item-1'), 'the other row is untouched')
    },
  },
  {
    name: 'update with several matches changes only the first by id',
    async body({ adapter }) {
      for (const id of ['item-c', 'item-a', 'item-b']) await adapter.create({ model: ITEM, data: itemRow(id, { title: 'same' }) })
      const updated = await adapter.update({ model: ITEM, where: { field: 'title', value: 'same' }, update: { rank: 99 } })
      equal(updated?.id, 'item-a', 'update() returns the row with the smallest id')
      sameIds(await adapter.findMany({ model: ITEM, where: { field: 'rank', value: 99 } }), ['item-a'], 'rows with rank 99')
    },
  },
  {
    name: 'updateMany returns the number of matched rows, changed or not',
    async body({ adapter }) {
      await adapter.create({ model: ITEM, data: itemRow('item-1', { active: true, rank: 5 }) })
      await adapter.create({ model: ITEM, data: itemRow('item-2', { active: true, rank: 1 }) })
      await adapter.create({ model: ITEM, data: itemRow('item-3', { active: true, rank: 2 }) })
      await adapter.create({ model: ITEM, data: itemRow('item-4', { active: false, rank: 3 }) })
      // item-1 already has rank 5: drivers that report "changed rows" (MySQL's default) say 2 here.
      const count = await adapter.updateMany({ model: ITEM, where: { field: 'active', value: true }, update: { rank: 5 } })
      equal(count, 3, 'updateMany() count')
      sameIds(await adapter.findMany({ model: ITEM, where: { field: 'rank', value: 5 } }), ['item-1', 'item-2', 'item-3'], 'rows with rank 5')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-4') }), itemRow('item-4', { active: false, rank: 3 }), 'the unmatched row')
      equal(await adapter.updateMany({ model: ITEM, where: { field: 'title', value: 'nope' }, update: { rank: 1 } }), 0, 'no match')
    },
  },
  {
    name: 'delete removes the matching row only',
    async body({ adapter }) {
      for (const id of ['item-a', 'item-b', 'item-c']) await adapter.create({ model: ITEM, data: itemRow(id) })
      const result = await adapter.delete({ model: ITEM, where: byId('item-b') })
      equal(result, undefined, 'delete() resolves with nothing')
      sameIds(await adapter.findMany({ model: ITEM }), ['item-a', 'item-c'], 'rows left')
      await adapter.delete({ model: ITEM, where: byId('missing') })
      sameIds(await adapter.findMany({ model: ITEM }), ['item-a', 'item-c'], 'rows left after deleting a missing row')
    },
  },
  {
    name: 'deleteMany returns the number of deleted rows',
    async body({ adapter }) {
      for (let rank = 1; rank <= 5; rank++) await adapter.create({ model: ITEM, data: itemRow(`item-${rank}`, { rank }) })
      equal(await adapter.deleteMany({ model: ITEM, where: { field: 'rank', operator: 'gte', value: 3 } }), 3, 'deleteMany() count')
      sameIds(await adapter.findMany({ model: ITEM }), ['item-1', 'item-2'], 'rows left')
      equal(await adapter.deleteMany({ model: ITEM, where: { field: 'rank', operator: 'gte', value: 3 } }), 0, 'second deleteMany()')
    },
  },
  {
    name: 'models are isolated: the same id in two models is two rows',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('shared') })
      await adapter.create({ model: 'verification', data: verificationRow('shared', 'email:shared') })
      await adapter.create({ model: ITEM, data: itemRow('shared') })
      rowEqual(await adapter.findOne({ model: 'verification', where: byId('shared') }), verificationRow('shared', 'email:shared'), 'verification row')
      await adapter.update({ model: 'user', where: byId('shared'), update: { name: 'Renamed' } })
      rowEqual(await adapter.findOne({ model: 'verification', where: byId('shared') }), verificationRow('shared', 'email:shared'), 'verification after updating the user')
      equal(await adapter.deleteMany({ model: 'verification', where: byId('shared') }), 1, 'deleting the verification')
      rowEqual(await adapter.findOne({ model: 'user', where: byId('shared') }), userRow('shared', { name: 'Renamed' }), 'the user survives')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('shared') }), itemRow('shared'), 'the item survives')
      equal(await adapter.count({ model: 'session' }), 0, 'an untouched model stays empty')
    },
  },
]

/** Changes a row object in place, the way careless caller code might. */
function mutate(row: Row): void {
  const date = row.happenedAt
  if (date instanceof Date) date.setTime(0)
  const payload = row.payload
  if (typeof payload === 'object' && payload !== null && !Array.isArray(payload)) {
    const record = payload as Record<string, unknown>
    record.count = 999
    const nested = record.nested
    if (typeof nested === 'object' && nested !== null && 'list' in nested && Array.isArray(nested.list)) nested.list.push('extra')
  }
  row.title = 'mutated'
}
