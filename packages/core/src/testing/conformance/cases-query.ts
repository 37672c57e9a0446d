/**
 * @module
 * Conformance cases for reading lists: multi-key sorting in both directions,
 * limit, offset (with and without a limit; SQLite and MySQL need a LIMIT
 * clause for OFFSET), pagination that sees every row exactly once, and count.
 * Sort values avoid mixed case and nulls, whose order collations and
 * backends legitimately disagree on.
 */
import type { Adapter } from '../../db/adapter.js'
import { equal, orderedIds, sameIds } from './assert.js'
import { day, ITEM, itemRow } from './fixtures.js'
import type { CaseDefinition } from './types.js'

/** (rank, title): s2 (1, plum), s5 (1, apple), s1 (2, kiwi), s3 (2, apple), s6 (2, mango), s4 (3, fig). */
async function seed(adapter: Adapter): Promise<void> {
  const rows = [
    itemRow('s1', { rank: 2, title: 'kiwi', big: 3_000_000_000_000, happenedAt: day(3) }),
    itemRow('s2', { rank: 1, title: 'plum', big: 6_000_000_000_000, happenedAt: day(1) }),
    itemRow('s3', { rank: 2, title: 'apple', big: 1_000_000_000_000, happenedAt: day(5) }),
    itemRow('s4', { rank: 3, title: 'fig', big: 5_000_000_000_000, happenedAt: day(2) }),
    itemRow('s5', { rank: 1, title: 'apple', big: 2_000_000_000_000, happenedAt: day(6) }),
    itemRow('s6', { rank: 2, title: 'mango', big: 4_000_000_000_000, happenedAt: day(4, 1) }),
  ]
  for (const row of rows) await adapter.create({ model: ITEM, data: row })
}

export const queryCases: readonly CaseDefinition[] = [
  {
    name: 'findMany without a where returns every row',
    async body({ adapter }) {
      equal(await adapter.findMany({ model: ITEM }), [], 'findMany on an empty model')
      await seed(adapter)
      sameIds(await adapter.findMany({ model: ITEM }), ['s1', 's2', 's3', 's4', 's5', 's6'], 'findMany()')
    },
  },
  {
    name: 'sortBy sorts ascending and descending on several keys',
    async body({ adapter }) {
      await seed(adapter)
      const rankAscTitleDesc = await adapter.findMany({
        model: ITEM,
        sortBy: [
          { field: 'rank', direction: 'asc' },
          { field: 'title', direction: 'desc' },
        ],
      })
      orderedIds(rankAscTitleDesc, ['s2', 's5', 's6', 's1', 's3', 's4'], 'rank asc, title desc')
      const rankDescTitleAsc = await adapter.findMany({
        model: ITEM,
        sortBy: [
          { field: 'rank', direction: 'desc' },
          { field: 'title', direction: 'asc' },
        ],
      })
      orderedIds(rankDescTitleAsc, ['s4', 's3', 's1', 's6', 's5', 's2'], 'rank desc, title asc')
      orderedIds(await adapter.findMany({ model: ITEM, sortBy: { field: 'happenedAt', direction: 'desc' } }), ['s5', 's3', 's6', 's1', 's4', 's2'], 'happenedAt desc')
      orderedIds(await adapter.findMany({ model: ITEM, sortBy: { field: 'big', direction: 'asc' } }), ['s3', 's5', 's1', 's6', 's4', 's2'], 'big asc')
      const filtered = await adapter.findMany({ model: ITEM, where: { field: 'rank', value: 2 }, sortBy: { field: 'title', direction: 'asc' } })
      orderedIds(filtered, ['s3', 's1', 's6'], 'where rank = 2, title asc')
    },
  },
  {
    name: 'limit returns the first rows in sort order',
    async body({ adapter }) {
      await seed(adapter)
      const rows = await adapter.findMany({ model: ITEM, sortBy: { field: 'big', direction: 'desc' }, limit: 2 })
      orderedIds(rows, ['s2', 's4'], 'big desc, limit 2')
      equal((await adapter.findMany({ model: ITEM, limit: 100 })).length, 6, 'a limit above the row count')
    },
  },
  {
    name: 'limit 0 returns no rows',
    async body({ adapter }) {
      await seed(adapter)
      equal(await adapter.findMany({ model: ITEM, limit: 0 }), [], 'findMany limit 0')
    },
  },
  {
    name: 'offset without a limit skips rows',
    async body({ adapter }) {
      await seed(adapter)
      orderedIds(await adapter.findMany({ model: ITEM, sortBy: { field: 'id', direction: 'asc' }, offset: 4 }), ['s5', 's6'], 'id asc, offset 4')
      equal(await adapter.findMany({ model: ITEM, offset: 6 }), [], 'offset past the end')
    },
  },
  {
    name: 'limit and offset paginate every row exactly once',
    async body({ adapter }) {
      await seed(adapter)
      await adapter.create({ model: ITEM, data: itemRow('s7', { rank: 3, title: 'apple' }) })
      // Ties on title are broken by id, so the order is total and pages cannot overlap.
      const sortBy = [
        { field: 'title', direction: 'asc' },
        { field: 'id', direction: 'desc' },
      ] as const
      const expected = ['s7', 's5', 's3', 's4', 's1', 's6', 's2']
      const seen: string[] = []
      for (let offset = 0; offset < 9; offset += 3) {
        const page = await adapter.findMany({ model: ITEM, sortBy, limit: 3, offset })
        orderedIds(page, expected.slice(offset, offset + 3), `page at offset ${offset}`)
        seen.push(...page.map((row) => String(row.id)))
      }
      equal(seen, expected, 'all pages together')
    },
  },
  {
    name: 'count with and without a where',
    async body({ adapter }) {
      equal(await adapter.count({ model: ITEM }), 0, 'count of an empty model')
      await seed(adapter)
      equal(await adapter.count({ model: ITEM }), 6, 'count()')
      equal(await adapter.count({ model: ITEM, where: { field: 'title', value: 'apple' } }), 2, 'count where title = apple')
      equal(await adapter.count({ model: ITEM, where: { field: 'rank', operator: 'gte', value: 2 } }), 4, 'count where rank >= 2')
      equal(await adapter.count({ model: 'user' }), 0, 'count of another model')
    },
  },
]
