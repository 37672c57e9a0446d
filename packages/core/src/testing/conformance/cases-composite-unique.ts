/**
 * @module
 * Conformance cases for composite unique constraints (`ModelDefinition.unique`),
 * on `conformanceItem`'s (shelf, slot). Core relies on one of them, account's
 * (providerId, accountId), to let the database decide a race between two
 * requests creating the same credential account, so a backend must enforce
 * it atomically, on create and update, with SQL's null semantics: a tuple
 * holding a null never collides.
 */
import { DatabaseError } from '../../db/adapter.js'
import { equal, fail, rejectsWithCode, resolves, rowEqual, sameIds } from './assert.js'
import { ITEM, itemRow } from './fixtures.js'
import type { CaseDefinition } from './types.js'

const byId = (id: string) => ({ field: 'id', value: id }) as const

export const compositeUniqueCases: readonly CaseDefinition[] = [
  {
    name: 'a composite unique violation throws UNIQUE_VIOLATION and keeps the first row',
    async body({ adapter }) {
      const first = itemRow('item-1', { shelf: 'A', slot: '1', title: 'Original' })
      await adapter.create({ model: ITEM, data: first })
      await rejectsWithCode(
        adapter.create({ model: ITEM, data: itemRow('item-2', { shelf: 'A', slot: '1', title: 'Intruder' }) }),
        'UNIQUE_VIOLATION',
        'a second row with (shelf, slot) = ("A", "1")',
      )
      sameIds(await adapter.findMany({ model: ITEM }), ['item-1'], 'rows after the failed create')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), first, 'the first row')
    },
  },
  {
    name: 'updating into a taken composite unique tuple throws UNIQUE_VIOLATION and changes nothing',
    async body({ adapter }) {
      await adapter.create({ model: ITEM, data: itemRow('item-1', { shelf: 'A', slot: '1' }) })
      await adapter.create({ model: ITEM, data: itemRow('item-2', { shelf: 'A', slot: '2' }) })
      await adapter.create({ model: ITEM, data: itemRow('item-3', { shelf: 'B', slot: '1' }) })
      await rejectsWithCode(adapter.update({ model: ITEM, where: byId('item-2'), update: { slot: '1' } }), 'UNIQUE_VIOLATION', 'update() of slot only')
      await rejectsWithCode(adapter.update({ model: ITEM, where: byId('item-3'), update: { shelf: 'A' } }), 'UNIQUE_VIOLATION', 'update() of shelf only')
      // One statement giving two rows the same tuple: the whole statement fails.
      await rejectsWithCode(
        adapter.updateMany({ model: ITEM, where: { field: 'id', operator: 'in', value: ['item-2', 'item-3'] }, update: { shelf: 'C', slot: '9' } }),
        'UNIQUE_VIOLATION',
        'updateMany() to one tuple',
      )
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-2') }), itemRow('item-2', { shelf: 'A', slot: '2' }), 'item-2')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-3') }), itemRow('item-3', { shelf: 'B', slot: '1' }), 'item-3')
      rowEqual(
        await adapter.update({ model: ITEM, where: byId('item-1'), update: { shelf: 'A', slot: '1', title: 'kept' } }),
        itemRow('item-1', { shelf: 'A', slot: '1', title: 'kept' }),
        'setting a row to its own tuple',
      )
    },
  },
  {
    name: 'composite unique tuples sharing some values, or differing in case, do not collide',
    async body({ adapter }) {
      const tuples: ReadonlyArray<readonly [string, string]> = [
        ['A', '1'],
        ['A', '2'],
        ['B', '1'],
        ['a', '1'],
        ['A', 'x'],
        ['A', 'X'],
      ]
      for (const [index, [shelf, slot]] of tuples.entries()) {
        await resolves(adapter.create({ model: ITEM, data: itemRow(`item-${String(index)}`, { shelf, slot }) }), `create() of (${shelf}, ${slot})`)
      }
      equal(await adapter.count({ model: ITEM, where: { field: 'shelf', value: 'A' } }), 4, 'rows on shelf "A"')
      equal(await adapter.count({ model: ITEM, where: { field: 'slot', value: '1' } }), 3, 'rows in slot "1"')
    },
  },
  {
    name: 'a null in a composite unique tuple never collides',
    async body({ adapter }) {
      const tuples: ReadonlyArray<readonly [string | null, string | null]> = [
        ['A', null],
        ['A', null],
        [null, '1'],
        [null, '1'],
        [null, null],
        [null, null],
      ]
      for (const [index, [shelf, slot]] of tuples.entries()) {
        await resolves(adapter.create({ model: ITEM, data: itemRow(`item-${String(index)}`, { shelf, slot }) }), `create() of (${String(shelf)}, ${String(slot)})`)
      }
      equal(await adapter.count({ model: ITEM }), 6, 'rows with a null in the tuple')
      // Filling in the null makes the tuple complete, and then it does collide.
      await resolves(adapter.update({ model: ITEM, where: byId('item-0'), update: { slot: '1' } }), 'completing ("A", "1")')
      await rejectsWithCode(adapter.update({ model: ITEM, where: byId('item-1'), update: { slot: '1' } }), 'UNIQUE_VIOLATION', 'completing a second ("A", "1")')
      rowEqual(await adapter.findOne({ model: ITEM, where: byId('item-1') }), itemRow('item-1', { shelf: 'A', slot: null }), 'item-1')
    },
  },
  {
    name: '20 concurrent creates of one composite unique tuple: exactly one succeeds',
    async body({ adapter }) {
      const attempts = Array.from({ length: 20 }, (_, index) => adapter.create({ model: ITEM, data: itemRow(`item-${String(index)}`, { shelf: 'race', slot: 'one' }) }))
      const results = await Promise.allSettled(attempts)
      equal(results.filter((result) => result.status === 'fulfilled').length, 1, 'successful creates')
      for (const result of results) {
        if (result.status === 'fulfilled') continue
        const error: unknown = result.reason
        if (!(error instanceof DatabaseError) || error.code !== 'UNIQUE_VIOLATION') {
          fail(`a losing create must reject with DatabaseError UNIQUE_VIOLATION, received ${String(error)}`)
        }
      }
      equal(await adapter.count({ model: ITEM, where: { field: 'shelf', value: 'race' } }), 1, 'stored rows')
    },
  },
]
