import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { WhereInput } from '../adapter.js'
import type { Schema } from '../schema.js'
import type { SqlDialect } from './dialect.js'
import { escapeLike, whereShape, whereSql } from './where-sql.js'
import { compileOnly } from '../../../test/compile-only.js'

const schema: Schema = {
  item: {
    tableName: 'items',
    fields: {
      title: { type: 'string' },
      rank: { type: 'number' },
      active: { type: 'boolean' },
      at: { type: 'date', columnName: 'happened_at' },
    },
  },
}

/** Compiles a where clause for a dialect without a connection. */
function compile(dialect: SqlDialect, where: WhereInput) {
  const db = compileOnly(dialect)
  const clause = whereSql({ schema, model: 'item', dialect }, where)
  if (!clause) throw new Error('no clause')
  return sql`${clause}`.compile(db)
}

describe('escapeLike', () => {
  it('escapes %, _ and the escape character ! itself; a backslash is plain text', () => {
    expect(escapeLike('100%_a\\b!')).toBe('100!%!_a\\b!!')
    expect(escapeLike('plain')).toBe('plain')
  })
})

describe('whereSql', () => {
  it('returns undefined for no clause and an empty list', () => {
    expect(whereSql({ schema, model: 'item', dialect: 'sqlite' }, undefined)).toBeUndefined()
    expect(whereSql({ schema, model: 'item', dialect: 'sqlite' }, [])).toBeUndefined()
  })

  it('maps fields to columns and binds converted values', () => {
    const date = new Date('2026-01-02T03:04:05.678Z')
    const query = compile('sqlite', [
      { field: 'at', operator: 'lt', value: date },
      { field: 'active', value: true },
    ])
    expect(query.sql).toBe('("happened_at" < ? and "active" = ?)')
    expect(query.parameters).toEqual(['2026-01-02T03:04:05.678Z', 1])
    const pg = compile('postgres', { field: 'active', value: true })
    expect(pg.sql).toBe('"active" = $1')
    expect(pg.parameters).toEqual([true])
  })

  it('turns eq/ne null into IS NULL / IS NOT NULL, and ne with a value keeps nulls', () => {
    expect(compile('postgres', { field: 'title', value: null }).sql).toBe('"title" is null')
    expect(compile('postgres', { field: 'title', operator: 'ne', value: null }).sql).toBe('"title" is not null')
    expect(compile('postgres', { field: 'title', operator: 'ne', value: 'x' }).sql).toBe('("title" <> $1 or "title" is null)')
  })

  it('compiles in [] and or [] to a clause that is always false, and and [] to always true', () => {
    expect(compile('mysql', { field: 'id', operator: 'in', value: [] }).sql).toBe('1 = 0')
    expect(compile('mysql', { or: [] }).sql).toBe('1 = 0')
    expect(compile('mysql', { and: [] }).sql).toBe('1 = 1')
    const list = compile('mysql', { field: 'rank', operator: 'in', value: [1, 2] })
    expect(list.sql).toBe('`rank` in (?, ?)')
    expect(list.parameters).toEqual([1, 2])
  })

  it('applies lower() to both sides when insensitive, on strings only', () => {
    expect(compile('postgres', { field: 'title', value: 'A', insensitive: true }).sql).toBe('lower("title") = lower($1)')
    expect(compile('postgres', { field: 'rank', value: 1, insensitive: true }).sql).toBe('"rank" = $1')
  })

  it('uses LIKE with an escaped pattern and an explicit ESCAPE on PostgreSQL and MySQL', () => {
    const pg = compile('postgres', { field: 'title', operator: 'contains', value: '5%_!' })
    expect(pg.sql).toBe(`"title" like $1 escape '!'`)
    expect(pg.parameters).toEqual(['%5!%!_!!%'])
    const mysql = compile('mysql', { field: 'title', operator: 'starts_with', value: 'a\\' })
    // '!' is written the same whatever sql_mode says of backslashes (NO_BACKSLASH_ESCAPES), and a backslash is plain text.
    expect(mysql.sql).toBe("`title` like ? escape '!'")
    expect(mysql.parameters).toEqual(['a\\%'])
    expect(compile('mysql', { field: 'title', operator: 'ends_with', value: 'Z', insensitive: true }).sql).toBe("lower(`title`) like lower(?) escape '!'")
  })

  it('avoids LIKE on SQLite, whose LIKE ignores case', () => {
    const contains = compile('sqlite', { field: 'title', operator: 'contains', value: '%' })
    expect(contains.sql).toBe('instr("title", ?) > 0')
    expect(contains.parameters).toEqual(['%'])
    expect(compile('sqlite', { field: 'title', operator: 'starts_with', value: 'a' }).sql).toBe('substr("title", 1, length(?)) = ?')
  })

  it('nests AND and OR with parentheses', () => {
    const query = compile('sqlite', { or: [{ field: 'rank', value: 1 }, { and: [{ field: 'rank', value: 2 }, { field: 'title', value: 'x' }] }] })
    expect(query.sql).toBe('("rank" = ? or ("rank" = ? and "title" = ?))')
    expect(query.parameters).toEqual([1, 2, 'x'])
  })

  it('rejects unknown fields and mistyped operands', () => {
    expect(() => compile('sqlite', { field: 'nope', value: 1 })).toThrow('unknown field "nope"')
    expect(() => compile('sqlite', { field: 'rank', operator: 'in', value: 1 })).toThrow('needs an array value')
    expect(() => compile('sqlite', { field: 'title', operator: 'contains', value: 1 })).toThrow('needs a string value')
    expect(() => compile('sqlite', { field: 'rank', operator: 'contains', value: '1' })).toThrow(TypeError)
  })
})

describe('whereShape', () => {
  const shape = (dialect: SqlDialect, where: WhereInput | undefined) => {
    const values: unknown[] = []
    return { key: whereShape({ schema, model: 'item', dialect }, where, values), values }
  }

  it('lists the values in the order the compiled SQL binds them, converted and repeated as bound', () => {
    for (const dialect of ['sqlite', 'postgres', 'mysql'] as const) {
      const where: WhereInput = [
        { field: 'at', operator: 'lt', value: new Date('2026-01-02T03:04:05.678Z') },
        { or: [{ field: 'active', value: true }, { field: 'title', operator: 'ends_with', value: '5%' }] },
        { field: 'rank', operator: 'in', value: [1, 2] },
      ]
      expect(shape(dialect, where).values).toEqual([...compile(dialect, where).parameters])
    }
    expect(shape('sqlite', { field: 'title', operator: 'ends_with', value: 'x' }).values).toEqual(['x', 'x', 'x'])
    expect(shape('postgres', { field: 'title', operator: 'contains', value: '5%_' }).values).toEqual(['%5!%!_%'])
  })

  it('names what the SQL text depends on and nothing else', () => {
    expect(shape('sqlite', { field: 'title', value: 'a' }).key).toBe(shape('sqlite', { field: 'title', value: 'b' }).key)
    const keys = [
      shape('sqlite', { field: 'title', value: 'a' }).key,
      shape('sqlite', { field: 'title', value: null }).key,
      shape('sqlite', { field: 'title', value: 'a', insensitive: true }).key,
      shape('sqlite', { field: 'title', operator: 'ne', value: 'a' }).key,
      shape('sqlite', { field: 'id', operator: 'in', value: ['a'] }).key,
      shape('sqlite', { field: 'id', operator: 'in', value: ['a', 'b'] }).key,
      shape('sqlite', { and: [{ field: 'title', value: 'a' }] }).key,
      shape('sqlite', { or: [{ field: 'title', value: 'a' }] }).key,
      shape('sqlite', undefined).key,
    ]
    expect(new Set(keys).size).toBe(keys.length)
    // Case folding only means something for text, as in the compiled SQL.
    expect(shape('sqlite', { field: 'rank', value: 1, insensitive: true }).key).toBe(shape('sqlite', { field: 'rank', value: 2 }).key)
  })

  it('validates exactly as whereSql does', () => {
    expect(() => shape('sqlite', { field: 'nope', value: 1 })).toThrow('unknown field "nope"')
    expect(() => shape('sqlite', { field: 'rank', operator: 'contains', value: '1' })).toThrow(TypeError)
  })
})
