import { describe, expect, it } from 'vitest'
import type { SortBy, WhereInput } from '../adapter.js'
import { resolveJoins } from '../join.js'
import type { Schema } from '../schema.js'
import type { SqlDialect } from './dialect.js'
import { joinedSelect } from './join-sql.js'
import { countStatement, selectStatement, type SelectArgs, type SelectContext } from './select-sql.js'
import { createStatementCache } from './statement-cache.js'
import { compileOnly } from '../../../test/compile-only.js'

const schema: Schema = {
  owner: { fields: { handle: { type: 'string', unique: true } } },
  item: {
    tableName: 'items',
    fields: {
      title: { type: 'string' },
      note: { type: 'string', required: false },
      rank: { type: 'number' },
      active: { type: 'boolean' },
      at: { type: 'date', columnName: 'happened_at' },
      ownerId: { type: 'string', references: { model: 'owner', field: 'id' } },
    },
  },
}

function context(dialect: SqlDialect, capacity?: number): SelectContext {
  return { schema, dialect, cache: createStatementCache(capacity), compiler: compileOnly(dialect) }
}

const ownerJoin = resolveJoins(schema, 'item', { owner: { model: 'owner', on: { field: 'ownerId', references: 'id' } } })

/** Reads of every shape the where compiler knows, each with values that differ between the two passes. */
function reads(pass: number): SelectArgs[] {
  const text = (s: string) => `${s}${String(pass)}`
  const wheres: (WhereInput | undefined)[] = [
    undefined,
    [],
    { field: 'title', value: text('a') },
    { field: 'title', value: text('A'), insensitive: true },
    { field: 'note', value: null },
    { field: 'note', operator: 'ne', value: null },
    { field: 'note', operator: 'ne', value: text('n') },
    { field: 'note', operator: 'ne', value: text('N'), insensitive: true },
    { field: 'rank', operator: 'lt', value: pass },
    { field: 'rank', operator: 'gte', value: pass * 10 },
    { field: 'at', operator: 'lte', value: new Date(1_000_000 + pass) },
    { field: 'at', operator: 'gt', value: '2026-01-02T03:04:05.678Z' },
    { field: 'active', value: pass % 2 === 0 },
    { field: 'id', operator: 'in', value: [] },
    { field: 'id', operator: 'in', value: [text('x')] },
    { field: 'id', operator: 'in', value: [text('x'), text('y'), text('z')] },
    { field: 'title', operator: 'in', value: [text('Q'), text('R')], insensitive: true },
    { field: 'title', operator: 'contains', value: `50%_${text('\\')}` },
    { field: 'title', operator: 'starts_with', value: text('pre_') },
    { field: 'title', operator: 'ends_with', value: text('%end') },
    { field: 'title', operator: 'ends_with', value: text('END'), insensitive: true },
    { and: [] },
    { or: [] },
    { or: [{ field: 'rank', value: pass }, { and: [{ field: 'title', value: text('t') }, { field: 'note', value: null }] }] },
    [{ field: 'rank', value: pass }, { field: 'active', value: true }],
  ]
  const sorts: (SortBy | readonly SortBy[] | undefined)[] = [undefined, { field: 'rank', direction: 'desc' }, [{ field: 'at', direction: 'asc' }, { field: 'id', direction: 'desc' }]]
  const list: SelectArgs[] = []
  for (const where of wheres) {
    list.push({ model: 'item', joins: [], where })
    list.push({ model: 'item', joins: ownerJoin, where, limit: 1 })
  }
  for (const sortBy of sorts) {
    list.push({ model: 'item', joins: [], where: { field: 'rank', value: pass }, sortBy, limit: 10, offset: 20 })
    list.push({ model: 'item', joins: ownerJoin, sortBy, offset: 5 })
  }
  return list
}

for (const dialect of ['sqlite', 'postgres', 'mysql'] as const) {
  describe(`selectStatement (${dialect})`, () => {
    it('gives exactly the SQL and parameters of a fresh compile, first from Kysely and then from the cache', () => {
      const cached = context(dialect)
      for (const pass of [1, 2]) {
        for (const args of reads(pass)) {
          const expected = selectStatement(context(dialect), args).query
          const actual = selectStatement(cached, args).query
          expect({ sql: actual.sql, parameters: actual.parameters }).toEqual({ sql: expected.sql, parameters: expected.parameters })
        }
      }
      // Reads with no where clause (undefined, []) are one shape: every first-pass read is a miss or a hit on an earlier one.
      const count = reads(1).length
      const stats = cached.cache.stats()
      expect(stats).toMatchObject({ mismatches: 0, size: stats.misses })
      expect(stats.hits + stats.misses).toBe(2 * count)
      expect(stats.hits).toBeGreaterThanOrEqual(count)
      expect(stats.misses).toBeGreaterThan(count - 5)
    })

    it('reuses one SQL string per shape, and counts the same way', () => {
      const cached = context(dialect)
      const first = selectStatement(cached, { model: 'item', joins: ownerJoin, where: { field: 'title', value: 'a' }, limit: 1 }).query
      const second = selectStatement(cached, { model: 'item', joins: ownerJoin, where: { field: 'title', value: 'b' }, limit: 1 }).query
      expect(second.sql).toBe(first.sql)
      expect(second.parameters).toEqual(['b'])
      const counted = countStatement(cached, 'item', { field: 'rank', operator: 'in', value: [1, 2] })
      const countedAgain = countStatement(cached, 'item', { field: 'rank', operator: 'in', value: [3, 4] })
      expect(countedAgain.sql).toBe(counted.sql)
      expect(countedAgain.parameters).toEqual([3, 4])
      expect(cached.cache.stats()).toMatchObject({ hits: 2, misses: 2, mismatches: 0 })
    })

    it('never lets different shapes share an entry', () => {
      const pairs: [SelectArgs, SelectArgs][] = [
        [{ model: 'item', joins: [], where: { field: 'note', value: null } }, { model: 'item', joins: [], where: { field: 'note', value: 'x' } }],
        [{ model: 'item', joins: [], where: { field: 'note', operator: 'ne', value: null } }, { model: 'item', joins: [], where: { field: 'note', operator: 'ne', value: 'x' } }],
        [{ model: 'item', joins: [], where: { field: 'id', operator: 'in', value: ['a'] } }, { model: 'item', joins: [], where: { field: 'id', operator: 'in', value: ['a', 'b'] } }],
        [{ model: 'item', joins: [], where: { field: 'id', operator: 'in', value: [] } }, { model: 'item', joins: [], where: { field: 'id', operator: 'in', value: ['a'] } }],
        [{ model: 'item', joins: [], where: { field: 'title', value: 'a' } }, { model: 'item', joins: [], where: { field: 'title', value: 'a', insensitive: true } }],
        [{ model: 'item', joins: [], where: { field: 'title', value: 'a' } }, { model: 'item', joins: [], where: { field: 'note', value: 'a' } }],
        [{ model: 'item', joins: [], where: { field: 'title', operator: 'contains', value: 'a' } }, { model: 'item', joins: [], where: { field: 'title', operator: 'ends_with', value: 'a' } }],
        [{ model: 'item', joins: [], where: { field: 'title', value: 'a' } }, { model: 'item', joins: ownerJoin, where: { field: 'title', value: 'a' } }],
        [{ model: 'item', joins: [], where: { or: [{ field: 'rank', value: 1 }, { field: 'rank', value: 2 }] } }, { model: 'item', joins: [], where: { and: [{ field: 'rank', value: 1 }, { field: 'rank', value: 2 }] } }],
        [{ model: 'item', joins: [], limit: 1 }, { model: 'item', joins: [], limit: 2 }],
        [{ model: 'item', joins: [], offset: 1 }, { model: 'item', joins: [], offset: 0 }],
        [{ model: 'item', joins: [], sortBy: { field: 'rank', direction: 'asc' } }, { model: 'item', joins: [], sortBy: { field: 'rank', direction: 'desc' } }],
      ]
      for (const [one, other] of pairs) {
        const cached = context(dialect)
        selectStatement(cached, one)
        const b = selectStatement(cached, other).query
        // Two entries: the second was compiled for itself, never served from the first's.
        expect(cached.cache.stats()).toEqual({ hits: 0, misses: 2, mismatches: 0, size: 2 })
        const fresh = selectStatement(context(dialect), other).query
        expect({ sql: b.sql, parameters: b.parameters }).toEqual({ sql: fresh.sql, parameters: fresh.parameters })
      }
    })

    it('checks every call in full, hit or miss', () => {
      const cached = context(dialect)
      const valid: SelectArgs = { model: 'item', joins: [], where: { field: 'title', value: 'a' }, limit: 1 }
      selectStatement(cached, valid)
      expect(() => selectStatement(cached, { ...valid, where: { field: 'nope', value: 'a' } })).toThrow('unknown field "nope"')
      expect(() => selectStatement(cached, { ...valid, limit: -1 })).toThrow('Invalid limit or offset')
      expect(() => selectStatement(cached, { ...valid, sortBy: { field: 'rank', direction: 'sideways' as 'asc' } })).toThrow('Invalid sort direction')
      expect(() => selectStatement(cached, { ...valid, where: { field: 'at', value: 'not a date' } })).toThrow('Invalid date value')
    })
  })
}

describe('joinedSelect', () => {
  it('builds the statement for a model and its joins once per schema', () => {
    expect(joinedSelect(schema, 'item', ownerJoin)).toBe(joinedSelect(schema, 'item', ownerJoin))
    const renamed = resolveJoins(schema, 'item', { author: { model: 'owner', on: { field: 'ownerId', references: 'id' } } })
    const other = joinedSelect(schema, 'item', renamed)
    expect(other).not.toBe(joinedSelect(schema, 'item', ownerJoin))
    expect(other.read({ c0: 'i1', c7: 'o1', c8: 'h' })).toMatchObject({ id: 'i1', author: { id: 'o1', handle: 'h' } })
  })
})
