/**
 * @module
 * Conformance cases for string matching. Every backend must compare strings
 * case-sensitively unless the clause says `insensitive: true` (MySQL's `_ci`
 * collations and SQLite's ASCII-insensitive LIKE do not, by default), and
 * must treat `%`, `_` and `\` in a value as themselves: a user-supplied
 * search string that turns into a wildcard matches rows it should not.
 */
import type { Adapter, WhereInput } from '../../db/adapter.js'
import { equal, rowEqual, sameIds } from './assert.js'
import { ITEM, itemRow, userRow } from './fixtures.js'
import type { CaseDefinition } from './types.js'

async function seedNotes(adapter: Adapter, notes: Readonly<Record<string, string | null>>): Promise<void> {
  for (const [id, note] of Object.entries(notes)) await adapter.create({ model: ITEM, data: itemRow(id, { note, title: note ?? 'none' }) })
}

async function expectIds(adapter: Adapter, where: WhereInput, ids: readonly string[], label: string): Promise<void> {
  sameIds(await adapter.findMany({ model: ITEM, where }), ids, `findMany where ${label}`)
  equal(await adapter.count({ model: ITEM, where }), ids.length, `count where ${label}`)
}

const NOTES = { s1: 'Alpha', s2: 'banana split', s3: 'Gamma Ray', s4: 'delta', s5: null }

export const stringCases: readonly CaseDefinition[] = [
  {
    name: 'contains, starts_with and ends_with',
    async body({ adapter }) {
      await seedNotes(adapter, NOTES)
      await expectIds(adapter, { field: 'note', operator: 'contains', value: 'an' }, ['s2'], 'note contains "an"')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: 'a' }, ['s1', 's2', 's3', 's4'], 'note contains "a"')
      await expectIds(adapter, { field: 'note', operator: 'starts_with', value: 'ban' }, ['s2'], 'note starts_with "ban"')
      await expectIds(adapter, { field: 'note', operator: 'ends_with', value: 'ta' }, ['s4'], 'note ends_with "ta"')
      await expectIds(adapter, { field: 'note', operator: 'ends_with', value: 'banana split' }, ['s2'], 'ends_with the whole value')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: 'zz' }, [], 'no match')
    },
  },
  {
    name: 'string operators are case-sensitive by default',
    async body({ adapter }) {
      await seedNotes(adapter, NOTES)
      await expectIds(adapter, { field: 'note', value: 'alpha' }, [], 'note eq "alpha" (stored "Alpha")')
      await expectIds(adapter, { field: 'note', value: 'Alpha' }, ['s1'], 'note eq "Alpha"')
      await expectIds(adapter, { field: 'title', operator: 'ne', value: 'ALPHA' }, ['s1', 's2', 's3', 's4', 's5'], 'title ne "ALPHA"')
      await expectIds(adapter, { field: 'note', operator: 'in', value: ['alpha', 'DELTA'] }, [], 'note in ["alpha", "DELTA"]')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: 'RAY' }, [], 'note contains "RAY"')
      await expectIds(adapter, { field: 'note', operator: 'starts_with', value: 'gamma' }, [], 'note starts_with "gamma"')
      await expectIds(adapter, { field: 'note', operator: 'ends_with', value: 'SPLIT' }, [], 'note ends_with "SPLIT"')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: 'Ray' }, ['s3'], 'note contains "Ray"')
    },
  },
  {
    name: 'insensitive: true compares strings case-insensitively',
    async body({ adapter }) {
      await seedNotes(adapter, NOTES)
      await expectIds(adapter, { field: 'note', value: 'ALPHA', insensitive: true }, ['s1'], 'note eq "ALPHA" insensitive')
      await expectIds(adapter, { field: 'title', operator: 'ne', value: 'ALPHA', insensitive: true }, ['s2', 's3', 's4', 's5'], 'title ne insensitive')
      await expectIds(adapter, { field: 'note', operator: 'in', value: ['alpha', 'DELTA'], insensitive: true }, ['s1', 's4'], 'note in insensitive')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: 'RAY', insensitive: true }, ['s3'], 'note contains insensitive')
      await expectIds(adapter, { field: 'note', operator: 'starts_with', value: 'gAmMa', insensitive: true }, ['s3'], 'note starts_with insensitive')
      await expectIds(adapter, { field: 'note', operator: 'ends_with', value: 'SPLIT', insensitive: true }, ['s2'], 'note ends_with insensitive')
    },
  },
  {
    name: 'LIKE metacharacters % _ and \\ in values match literally',
    async body({ adapter }) {
      await seedNotes(adapter, {
        m1: '100% sure',
        m2: '1000 sure',
        m3: 'a_b',
        m4: 'axb',
        m5: 'back\\slash',
        m6: 'backslash',
        m7: 'back\\\\slash',
      })
      await expectIds(adapter, { field: 'note', operator: 'contains', value: '%' }, ['m1'], 'contains "%"')
      await expectIds(adapter, { field: 'note', operator: 'starts_with', value: '100%' }, ['m1'], 'starts_with "100%"')
      await expectIds(adapter, { field: 'note', operator: 'ends_with', value: '% sure' }, ['m1'], 'ends_with "% sure"')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: '_' }, ['m3'], 'contains "_"')
      await expectIds(adapter, { field: 'note', operator: 'starts_with', value: 'a_' }, ['m3'], 'starts_with "a_"')
      await expectIds(adapter, { field: 'note', operator: 'ends_with', value: '_b' }, ['m3'], 'ends_with "_b"')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: '\\' }, ['m5', 'm7'], 'contains one backslash')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: 'k\\s' }, ['m5'], 'contains "k\\s"')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: '\\\\' }, ['m7'], 'contains two backslashes')
      await expectIds(adapter, { field: 'note', operator: 'ends_with', value: '\\slash' }, ['m5', 'm7'], 'ends_with "\\slash"')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: '%', insensitive: true }, ['m1'], 'contains "%" insensitive')
      await expectIds(adapter, { field: 'note', operator: 'starts_with', value: 'A_', insensitive: true }, ['m3'], 'starts_with "A_" insensitive')
      await expectIds(adapter, { field: 'note', operator: 'contains', value: 'K\\S', insensitive: true }, ['m5'], 'contains "K\\S" insensitive')
      await expectIds(adapter, { field: 'note', value: 'a_b' }, ['m3'], 'eq "a_b"')
      await expectIds(adapter, { field: 'note', value: 'A_B', insensitive: true }, ['m3'], 'eq "A_B" insensitive')
    },
  },
  {
    name: 'case-insensitive email lookup on the user model',
    async body({ adapter }) {
      await adapter.create({ model: 'user', data: userRow('ada', { email: 'ada@example.com' }) })
      await adapter.create({ model: 'user', data: userRow('bob', { email: 'Bob@Example.com' }) })
      const ada = await adapter.findOne({ model: 'user', where: { field: 'email', value: 'ADA@Example.COM', insensitive: true } })
      rowEqual(ada, userRow('ada', { email: 'ada@example.com' }), 'insensitive lookup of ada')
      const bob = await adapter.findOne({ model: 'user', where: { field: 'email', value: 'bob@example.com', insensitive: true } })
      equal(bob?.id, 'bob', 'insensitive lookup of a mixed-case stored email')
      equal(await adapter.findOne({ model: 'user', where: { field: 'email', value: 'ADA@Example.COM' } }), null, 'sensitive lookup')
    },
  },
]
