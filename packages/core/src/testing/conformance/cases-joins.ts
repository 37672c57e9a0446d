/**
 * @module
 * Conformance cases for `join` on `findOne` and `findMany`. get-session reads
 * a session with its user in one query (session.userId → user.id),
 * so a joined row must come back exactly as a plain read would return it:
 * keyed by field name, every value converted. A missing match is `null`
 * and never drops the base row (LEFT JOIN); `where`, `sortBy` and paging
 * apply to the base model. The item model is also joined to itself (its
 * `note` to another item's unique `slug`), which reaches every field type and
 * a column whose name differs from its field's, and a join that no foreign
 * key guards, so a value can point at nothing.
 */
import type { Joins, Row } from '../../db/adapter.js'
import { equal, ok, orderedIds, rejects, rowEqual } from './assert.js'
import { fullItemRow, ITEM, itemRow, sessionRow, userRow } from './fixtures.js'
import type { CaseDefinition } from './types.js'

const byId = (id: string) => ({ field: 'id', value: id }) as const

const withUser: Joins = { user: { model: 'user', on: { field: 'userId', references: 'id' } } }
const withParent: Joins = { parent: { model: ITEM, on: { field: 'note', references: 'slug' } } }
const withOwner: Joins = { owner: { model: 'user', on: { field: 'ownerId', references: 'id' } } }
const withPeople: Joins = { ...withOwner, reviewer: { model: 'user', on: { field: 'reviewerId', references: 'id' } } }

/** A user whose every field differs from the defaults: a boolean true, a set nullable string, distinct dates. */
function richUser(id: string): Row {
  return userRow(id, { emailVerified: true, image: `https://img.example/${id}.png`, createdAt: new Date('2025-06-07T08:09:10.011Z') })
}

export const joinCases: readonly CaseDefinition[] = [
  {
    name: 'findOne with join returns the joined row with every field type converted',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: richUser('user-1') })
      await adapter.create({ model: 'session', data: sessionRow('session-1', 'user-1', { ipAddress: '203.0.113.9' }) })
      const session = await adapter.findOne({ model: 'session', where: { field: 'token', value: 'token-session-1' }, join: withUser })
      rowEqual(session, { ...sessionRow('session-1', 'user-1', { ipAddress: '203.0.113.9' }), user: richUser('user-1') }, 'session joined with its user')

      await adapter.create({ model: ITEM, data: fullItemRow('parent', 'user-1') })
      await adapter.create({ model: ITEM, data: itemRow('child', { note: 'full-parent', rank: 3 }) })
      const child = await adapter.findOne({ model: ITEM, where: byId('child'), join: withParent })
      rowEqual(child, { ...itemRow('child', { note: 'full-parent', rank: 3 }), parent: fullItemRow('parent', 'user-1') }, 'item joined with the item its note names')
      const listed = await adapter.findMany({ model: ITEM, where: byId('child'), join: withParent })
      equal(listed.length, 1, 'findMany with join returns the one matching row')
      rowEqual(listed[0], { ...itemRow('child', { note: 'full-parent', rank: 3 }), parent: fullItemRow('parent', 'user-1') }, 'the same row through findMany')
      equal(await adapter.findOne({ model: 'session', where: byId('missing'), join: withUser }), null, 'no base row: null, whatever the join')
    },
  },
  {
    name: 'a join with no matching row gives null and keeps the base row (LEFT JOIN)',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('user-1') })
      await adapter.create({ model: ITEM, data: itemRow('parent', { slug: 'parent-slug' }) })
      await adapter.create({ model: ITEM, data: itemRow('a-owned', { ownerId: 'user-1', note: 'parent-slug' }) })
      await adapter.create({ model: ITEM, data: itemRow('b-unowned', { note: 'no-such-slug' }) })
      // Joins compare exactly, as where clauses do: a value differing only in case names nothing.
      await adapter.create({ model: ITEM, data: itemRow('c-case', { note: 'PARENT-SLUG' }) })

      const unowned = await adapter.findOne({ model: ITEM, where: byId('b-unowned'), join: { ...withOwner, ...withParent } })
      rowEqual(unowned, { ...itemRow('b-unowned', { note: 'no-such-slug' }), owner: null, parent: null }, 'a null reference and a dangling value')

      const rows = await adapter.findMany({ model: ITEM, join: { ...withOwner, ...withParent }, sortBy: { field: 'id', direction: 'asc' } })
      orderedIds(rows, ['a-owned', 'b-unowned', 'c-case', 'parent'], 'every base row, matched or not')
      rowEqual(rows[0], { ...itemRow('a-owned', { ownerId: 'user-1', note: 'parent-slug' }), owner: userRow('user-1'), parent: itemRow('parent', { slug: 'parent-slug' }) }, 'a-owned')
      equal([rows[1]?.owner, rows[1]?.parent], [null, null], 'b-unowned has neither')
      equal([rows[2]?.owner, rows[2]?.parent], [null, null], 'c-case names its parent in the wrong case')
      equal([rows[3]?.owner, rows[3]?.parent], [null, null], 'parent has a null note')
    },
  },
  {
    name: 'findMany with join applies where, sortBy, limit and offset to the base model',
    async body({ adapter }) {
      for (const id of ['user-1', 'user-2']) await adapter.create({ model: 'user', data: userRow(id) })
      const items = [
        itemRow('i1', { rank: 5, active: true, ownerId: 'user-1' }),
        itemRow('i2', { rank: 4, active: true, ownerId: 'user-2' }),
        itemRow('i3', { rank: 3, active: false, ownerId: 'user-1' }),
        itemRow('i4', { rank: 2, active: true, ownerId: null }),
        itemRow('i5', { rank: 1, active: true, ownerId: 'user-2' }),
      ]
      for (const row of items) await adapter.create({ model: ITEM, data: row })
      const page = await adapter.findMany({
        model: ITEM,
        join: withOwner,
        where: { field: 'active', value: true },
        sortBy: { field: 'rank', direction: 'desc' },
        limit: 2,
        offset: 1,
      })
      orderedIds(page, ['i2', 'i4'], 'active items by rank desc, second and third')
      equal([page[0]?.owner, page[1]?.owner], [userRow('user-2'), null], 'their owners')
      // `id` exists in both tables: the clause and the sort key must mean the base model's.
      const byIds = await adapter.findMany({
        model: ITEM,
        join: withOwner,
        where: { field: 'id', operator: 'in', value: ['i1', 'i3', 'i5'] },
        sortBy: { field: 'id', direction: 'desc' },
      })
      orderedIds(byIds, ['i5', 'i3', 'i1'], 'where id in (…), id desc')
      equal(
        byIds.map((row) => (row.owner as Row | null)?.id ?? null),
        ['user-2', 'user-1', 'user-1'],
        'owner ids',
      )
      const first = await adapter.findOne({ model: ITEM, join: withOwner, where: [{ field: 'ownerId', value: 'user-1' }, { field: 'active', value: false }] })
      rowEqual(first, { ...itemRow('i3', { rank: 3, active: false, ownerId: 'user-1' }), owner: userRow('user-1') }, 'findOne with a list where')
    },
  },
  {
    name: 'two joins in one call, the same model joined twice',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: richUser('owner') })
      await adapter.create({ model: 'user', data: userRow('reviewer', { name: 'Reviewer' }) })
      await adapter.create({ model: ITEM, data: itemRow('both', { ownerId: 'owner', reviewerId: 'reviewer' }) })
      await adapter.create({ model: ITEM, data: itemRow('same', { ownerId: 'reviewer', reviewerId: 'reviewer' }) })
      await adapter.create({ model: ITEM, data: itemRow('owner-only', { ownerId: 'owner' }) })
      const both = await adapter.findOne({ model: ITEM, where: byId('both'), join: withPeople })
      rowEqual(both, { ...itemRow('both', { ownerId: 'owner', reviewerId: 'reviewer' }), owner: richUser('owner'), reviewer: userRow('reviewer', { name: 'Reviewer' }) }, 'owner and reviewer')
      const rows = await adapter.findMany({ model: ITEM, join: withPeople, sortBy: { field: 'id', direction: 'asc' } })
      orderedIds(rows, ['both', 'owner-only', 'same'], 'every item')
      equal([(rows[1]?.owner as Row | null)?.id, rows[1]?.reviewer], ['owner', null], 'owner-only')
      equal([(rows[2]?.owner as Row | null)?.id, (rows[2]?.reviewer as Row | null)?.id], ['reviewer', 'reviewer'], 'one user in both roles')
    },
  },
  {
    name: 'joined rows are copies: mutating them changes nothing stored',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('user-1') })
      await adapter.create({ model: ITEM, data: fullItemRow('parent', 'user-1') })
      await adapter.create({ model: ITEM, data: itemRow('child', { note: 'full-parent', ownerId: 'user-1' }) })
      const read = () => adapter.findOne({ model: ITEM, where: byId('child'), join: { ...withParent, ...withOwner } })
      const first = await read()
      const parent = first?.parent as Row | null | undefined
      const owner = first?.owner as Row | null | undefined
      ok(parent && owner, 'both joins found their rows')
      parent.title = 'mutated'
      ;(parent.payload as { count: number }).count = 99
      ;(parent.happenedAt as Date).setTime(0)
      owner.name = 'mutated'
      const again = await read()
      rowEqual(again?.parent, fullItemRow('parent', 'user-1'), 'the joined item after mutating the first read')
      rowEqual(again?.owner, userRow('user-1'), 'the joined user after mutating the first read')
      rowEqual(await adapter.findOne({ model: 'user', where: byId('user-1') }), userRow('user-1'), 'the stored user')
    },
  },
  {
    name: 'a join alias colliding with a field, or an unknown model or field, rejects',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('user-1') })
      await adapter.create({ model: ITEM, data: itemRow('item-1', { ownerId: 'user-1' }) })
      const where = byId('item-1')
      const invalid: readonly [string, Joins][] = [
        ['an alias equal to a field', { title: { model: 'user', on: { field: 'ownerId', references: 'id' } } }],
        ['the alias "id"', { id: { model: 'user', on: { field: 'ownerId', references: 'id' } } }],
        ['an unknown model', { owner: { model: 'nope', on: { field: 'ownerId', references: 'id' } } }],
        ['an unknown base field', { owner: { model: 'user', on: { field: 'nope', references: 'id' } } }],
        ['an unknown joined field', { owner: { model: 'user', on: { field: 'ownerId', references: 'nope' } } }],
        ['a joined field that is not unique', { owner: { model: 'user', on: { field: 'ownerId', references: 'name' } } }],
      ]
      for (const [label, join] of invalid) {
        const fromOne = await rejects(adapter.findOne({ model: ITEM, where, join }), `findOne with ${label}`)
        ok(fromOne instanceof Error, `findOne with ${label} rejects with an Error`)
        const fromMany = await rejects(adapter.findMany({ model: ITEM, where, join }), `findMany with ${label}`)
        ok(fromMany instanceof Error, `findMany with ${label} rejects with an Error`)
      }
      // where and sortBy name the base model's fields; a joined model's field is unknown there.
      await rejects(adapter.findMany({ model: 'session', join: withUser, where: { field: 'email', value: 'user-1@example.com' } }), 'where on a joined field')
      await rejects(adapter.findMany({ model: 'session', join: withUser, sortBy: { field: 'email', direction: 'asc' } }), 'sortBy on a joined field')
      rowEqual(await adapter.findOne({ model: ITEM, where }), itemRow('item-1', { ownerId: 'user-1' }), 'the row is untouched')
    },
  },
]
