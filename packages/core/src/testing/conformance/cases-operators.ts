/**
 * @module
 * Conformance cases for the comparison operators and boolean structure of
 * `Where`: eq/ne (null included), lt/lte/gt/gte on numbers, 64-bit numbers,
 * dates (to the millisecond) and strings, `in` (empty list included) and
 * AND/OR nesting. The empty forms are where adapters most often go wrong in
 * a dangerous direction: `in []`, `or []` must match nothing, never everything.
 */
import type { Adapter, WhereInput } from '../../db/adapter.js'
import { equal, sameIds } from './assert.js'
import { day, ITEM, itemRow } from './fixtures.js'
import type { CaseDefinition } from './types.js'

const ALL = ['w1', 'w2', 'w3', 'w4', 'w5']

/** Five rows with distinct values; w2 and w5 have a null note. */
async function seed(adapter: Adapter): Promise<void> {
  const rows = [
    itemRow('w1', { title: 'apple', rank: 1, big: 1_000_000_000_001, active: true, happenedAt: day(0), note: 'Alpha' }),
    itemRow('w2', { title: 'banana', rank: 2, big: 2_000_000_000_002, active: false, happenedAt: day(31), note: null }),
    itemRow('w3', { title: 'cherry', rank: 3, big: 3_000_000_000_003, active: true, happenedAt: day(59), note: 'gamma' }),
    itemRow('w4', { title: 'date', rank: 4, big: 4_000_000_000_004, active: false, happenedAt: day(90), note: 'Delta' }),
    itemRow('w5', { title: 'elder', rank: 5, big: 5_000_000_000_005, active: true, happenedAt: day(120), note: null }),
  ]
  for (const row of rows) await adapter.create({ model: ITEM, data: row })
}

async function expectIds(adapter: Adapter, where: WhereInput, ids: readonly string[], label: string): Promise<void> {
  sameIds(await adapter.findMany({ model: ITEM, where }), ids, `findMany where ${label}`)
  equal(await adapter.count({ model: ITEM, where }), ids.length, `count where ${label}`)
}

export const operatorCases: readonly CaseDefinition[] = [
  {
    name: 'eq and ne on strings, numbers, booleans and dates',
    async body({ adapter }) {
      await seed(adapter)
      await expectIds(adapter, { field: 'title', value: 'cherry' }, ['w3'], 'title (operator omitted)')
      await expectIds(adapter, { field: 'title', operator: 'eq', value: 'cherry' }, ['w3'], 'title eq')
      await expectIds(adapter, { field: 'rank', operator: 'eq', value: 2 }, ['w2'], 'rank eq')
      await expectIds(adapter, { field: 'big', operator: 'eq', value: 3_000_000_000_003 }, ['w3'], 'big eq')
      await expectIds(adapter, { field: 'active', operator: 'eq', value: true }, ['w1', 'w3', 'w5'], 'active eq true')
      await expectIds(adapter, { field: 'active', operator: 'eq', value: false }, ['w2', 'w4'], 'active eq false')
      await expectIds(adapter, { field: 'happenedAt', operator: 'eq', value: day(90) }, ['w4'], 'happenedAt eq')
      await expectIds(adapter, { field: 'id', operator: 'eq', value: 'w5' }, ['w5'], 'id eq')
      await expectIds(adapter, { field: 'title', operator: 'ne', value: 'cherry' }, ['w1', 'w2', 'w4', 'w5'], 'title ne')
      await expectIds(adapter, { field: 'rank', operator: 'ne', value: 2 }, ['w1', 'w3', 'w4', 'w5'], 'rank ne')
      await expectIds(adapter, { field: 'active', operator: 'ne', value: true }, ['w2', 'w4'], 'active ne true')
      await expectIds(adapter, { field: 'happenedAt', operator: 'ne', value: day(90) }, ['w1', 'w2', 'w3', 'w5'], 'happenedAt ne')
    },
  },
  {
    name: 'eq null matches null fields and ne null matches set fields',
    async body({ adapter }) {
      await seed(adapter)
      await expectIds(adapter, { field: 'note', value: null }, ['w2', 'w5'], 'note eq null')
      await expectIds(adapter, { field: 'note', operator: 'ne', value: null }, ['w1', 'w3', 'w4'], 'note ne null')
      await expectIds(adapter, { field: 'dueAt', value: null }, ALL, 'dueAt eq null')
      await expectIds(adapter, { field: 'dueAt', operator: 'ne', value: null }, [], 'dueAt ne null')
    },
  },
  {
    name: 'ne with a value also matches rows where the field is null',
    async body({ adapter }) {
      await seed(adapter)
      // null is not equal to 'gamma': SQL's `note <> 'gamma'` alone would drop w2 and w5.
      await expectIds(adapter, { field: 'note', operator: 'ne', value: 'gamma' }, ['w1', 'w2', 'w4', 'w5'], 'note ne gamma')
    },
  },
  {
    name: 'lt, lte, gt and gte on numbers and 64-bit numbers',
    async body({ adapter }) {
      await seed(adapter)
      await expectIds(adapter, { field: 'rank', operator: 'lt', value: 3 }, ['w1', 'w2'], 'rank lt 3')
      await expectIds(adapter, { field: 'rank', operator: 'lte', value: 3 }, ['w1', 'w2', 'w3'], 'rank lte 3')
      await expectIds(adapter, { field: 'rank', operator: 'gt', value: 3 }, ['w4', 'w5'], 'rank gt 3')
      await expectIds(adapter, { field: 'rank', operator: 'gte', value: 3 }, ['w3', 'w4', 'w5'], 'rank gte 3')
      await expectIds(adapter, { field: 'rank', operator: 'gt', value: -1 }, ALL, 'rank gt -1')
      await expectIds(adapter, { field: 'big', operator: 'gt', value: 2_000_000_000_002 }, ['w3', 'w4', 'w5'], 'big gt')
      await expectIds(adapter, { field: 'big', operator: 'lte', value: 2_000_000_000_002 }, ['w1', 'w2'], 'big lte')
    },
  },
  {
    name: 'lt, lte, gt and gte on dates, to the millisecond',
    async body({ adapter }) {
      await seed(adapter)
      await expectIds(adapter, { field: 'happenedAt', operator: 'lt', value: day(59) }, ['w1', 'w2'], 'happenedAt lt')
      await expectIds(adapter, { field: 'happenedAt', operator: 'lte', value: day(59) }, ['w1', 'w2', 'w3'], 'happenedAt lte')
      await expectIds(adapter, { field: 'happenedAt', operator: 'gt', value: day(59) }, ['w4', 'w5'], 'happenedAt gt')
      await expectIds(adapter, { field: 'happenedAt', operator: 'gte', value: day(59) }, ['w3', 'w4', 'w5'], 'happenedAt gte')
      await expectIds(adapter, { field: 'happenedAt', operator: 'gt', value: day(59, -1) }, ['w3', 'w4', 'w5'], 'happenedAt gt (1 ms before w3)')
      await expectIds(adapter, { field: 'happenedAt', operator: 'lt', value: day(59, 1) }, ['w1', 'w2', 'w3'], 'happenedAt lt (1 ms after w3)')
    },
  },
  {
    name: 'lt, lte, gt and gte on strings',
    async body({ adapter }) {
      await seed(adapter)
      await expectIds(adapter, { field: 'title', operator: 'lt', value: 'cherry' }, ['w1', 'w2'], 'title lt')
      await expectIds(adapter, { field: 'title', operator: 'lte', value: 'cherry' }, ['w1', 'w2', 'w3'], 'title lte')
      await expectIds(adapter, { field: 'title', operator: 'gt', value: 'cherry' }, ['w4', 'w5'], 'title gt')
      await expectIds(adapter, { field: 'title', operator: 'gte', value: 'cherry' }, ['w3', 'w4', 'w5'], 'title gte')
    },
  },
  {
    name: 'comparisons never match null fields or null values',
    async body({ adapter }) {
      await seed(adapter)
      await expectIds(adapter, { field: 'note', operator: 'lt', value: 'zzz' }, ['w1', 'w3', 'w4'], 'note lt zzz')
      await expectIds(adapter, { field: 'note', operator: 'gte', value: '' }, ['w1', 'w3', 'w4'], 'note gte empty string')
      await expectIds(adapter, { field: 'dueAt', operator: 'lt', value: new Date('9999-01-01T00:00:00.000Z') }, [], 'dueAt lt far future')
      await expectIds(adapter, { field: 'dueAt', operator: 'gt', value: new Date('1900-01-01T00:00:00.000Z') }, [], 'dueAt gt far past')
      await expectIds(adapter, { field: 'rank', operator: 'lt', value: null }, [], 'rank lt null')
      await expectIds(adapter, { field: 'rank', operator: 'gte', value: null }, [], 'rank gte null')
    },
  },
  {
    name: 'in on strings, numbers and ids',
    async body({ adapter }) {
      await seed(adapter)
      await expectIds(adapter, { field: 'title', operator: 'in', value: ['apple', 'cherry', 'nope'] }, ['w1', 'w3'], 'title in')
      await expectIds(adapter, { field: 'rank', operator: 'in', value: [2, 4, 40] }, ['w2', 'w4'], 'rank in')
      await expectIds(adapter, { field: 'big', operator: 'in', value: [5_000_000_000_005] }, ['w5'], 'big in')
      await expectIds(adapter, { field: 'id', operator: 'in', value: ['w5', 'w1'] }, ['w1', 'w5'], 'id in')
      await expectIds(adapter, { field: 'note', operator: 'in', value: ['Alpha', 'gamma'] }, ['w1', 'w3'], 'nullable note in')
    },
  },
  {
    name: 'in with an empty list matches nothing, in every operation',
    async body({ adapter }) {
      await seed(adapter)
      const where = { field: 'id', operator: 'in', value: [] } as const
      await expectIds(adapter, where, [], 'id in []')
      await expectIds(adapter, { ...where, insensitive: true }, [], 'id in [] insensitive')
      equal(await adapter.findOne({ model: ITEM, where }), null, 'findOne where id in []')
      equal(await adapter.updateMany({ model: ITEM, where, update: { rank: 0 } }), 0, 'updateMany where id in []')
      equal(await adapter.update({ model: ITEM, where, update: { rank: 0 } }), null, 'update where id in []')
      equal(await adapter.consume({ model: ITEM, where }), null, 'consume where id in []')
      equal(await adapter.deleteMany({ model: ITEM, where }), 0, 'deleteMany where id in []')
      await adapter.delete({ model: ITEM, where })
      await expectIds(adapter, { or: [where, { field: 'id', value: 'w1' }] }, ['w1'], '(id in []) or id = w1')
      await expectIds(adapter, { field: 'rank', operator: 'gt', value: 0 }, ALL, 'every row is still there with its rank')
    },
  },
  {
    name: 'AND and OR nest, and a list of clauses means AND',
    async body({ adapter }) {
      await seed(adapter)
      const active = { field: 'active', value: true } as const
      const rankAbove1 = { field: 'rank', operator: 'gt', value: 1 } as const
      await expectIds(adapter, [active, rankAbove1], ['w3', 'w5'], '[active, rank > 1]')
      await expectIds(adapter, { and: [active, rankAbove1] }, ['w3', 'w5'], 'active and rank > 1')
      await expectIds(adapter, [active], ['w1', 'w3', 'w5'], '[active]')
      await expectIds(adapter, { or: [{ field: 'title', value: 'apple' }, { field: 'rank', operator: 'gte', value: 5 }] }, ['w1', 'w5'], 'apple or rank >= 5')
      await expectIds(
        adapter,
        { or: [{ and: [active, { field: 'rank', operator: 'gt', value: 2 }] }, { field: 'title', value: 'banana' }] },
        ['w2', 'w3', 'w5'],
        '(active and rank > 2) or banana',
      )
      await expectIds(
        adapter,
        { and: [{ or: [{ field: 'rank', value: 1 }, { field: 'rank', value: 2 }, { field: 'rank', value: 3 }] }, { or: [{ field: 'active', value: false }, { field: 'title', value: 'apple' }] }] },
        ['w1', 'w2'],
        '(rank 1 or 2 or 3) and (inactive or apple)',
      )
      await expectIds(
        adapter,
        [{ or: [{ field: 'title', value: 'date' }, { field: 'title', value: 'elder' }] }, { field: 'active', value: false }],
        ['w4'],
        '[date or elder, inactive]',
      )
      await expectIds(adapter, { or: [{ and: [{ or: [{ field: 'id', value: 'w2' }] }] }] }, ['w2'], 'deeply nested single clause')
    },
  },
  {
    name: 'an empty AND matches everything and an empty OR matches nothing',
    async body({ adapter }) {
      await seed(adapter)
      await expectIds(adapter, { and: [] }, ALL, 'and []')
      await expectIds(adapter, [], ALL, 'an empty list')
      await expectIds(adapter, { or: [] }, [], 'or []')
      await expectIds(adapter, { and: [{ or: [] }, { field: 'id', value: 'w1' }] }, [], '(or []) and id = w1')
      equal(await adapter.updateMany({ model: ITEM, where: { or: [] }, update: { rank: 0 } }), 0, 'updateMany where or []')
      equal(await adapter.deleteMany({ model: ITEM, where: { or: [] } }), 0, 'deleteMany where or []')
      await expectIds(adapter, { field: 'rank', operator: 'gt', value: 0 }, ALL, 'every row is still there with its rank')
    },
  },
]
