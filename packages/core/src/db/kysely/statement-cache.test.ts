import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createStatementCache } from './statement-cache.js'

const db = new Kysely<Record<string, Record<string, unknown>>>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new SqliteIntrospector(kysely),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
})

const byId = (id: unknown) => () => sql`select * from ${sql.id('item')} where ${sql.id('id')} = ${id}`

describe('createStatementCache', () => {
  it('compiles a shape once and reuses the same SQL text with each call’s values', () => {
    const cache = createStatementCache()
    let builds = 0
    const counted = (id: string) => () => {
      builds++
      return byId(id)()
    }
    const first = cache.compile('by id', ['a'], counted('a'), db)
    const second = cache.compile('by id', ['b'], counted('b'), db)
    expect(first.sql).toBe('select * from "item" where "id" = ?')
    expect(second.sql).toBe(first.sql)
    expect(first.parameters).toEqual(['a'])
    expect(second.parameters).toEqual(['b'])
    expect(builds).toBe(1)
    expect(cache.stats()).toEqual({ hits: 1, misses: 1, mismatches: 0, size: 1 })
  })

  it('never caches a statement whose computed values disagree with the compile, and answers with the compile', () => {
    const cache = createStatementCache()
    const wrong = cache.compile('by id', ['not the bound value'], byId('a'), db)
    expect(wrong.parameters).toEqual(['a'])
    const again = cache.compile('by id', ['a'], byId('a'), db)
    expect(again.parameters).toEqual(['a'])
    expect(cache.stats()).toEqual({ hits: 0, misses: 2, mismatches: 1, size: 1 })
    const missingValue = cache.compile('other', [], byId('a'), db)
    expect(missingValue.parameters).toEqual(['a'])
    expect(cache.stats().mismatches).toBe(2)
  })

  it('compares dates by instant, since each conversion makes a new Date', () => {
    const cache = createStatementCache()
    const at = (time: number) => () => sql`select ${new Date(time)}`
    cache.compile('at', [new Date(5)], at(5), db)
    expect(cache.stats()).toMatchObject({ mismatches: 0, size: 1 })
    cache.compile('at other', [new Date(6)], at(5), db)
    expect(cache.stats()).toMatchObject({ mismatches: 1, size: 1 })
  })

  it('keeps at most its capacity, dropping the least recently used shape', () => {
    const cache = createStatementCache(2)
    cache.compile('a', ['x'], byId('x'), db)
    cache.compile('b', ['x'], byId('x'), db)
    cache.compile('a', ['y'], byId('y'), db) // a is now the most recent
    cache.compile('c', ['x'], byId('x'), db) // evicts b
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 3, size: 2 })
    cache.compile('a', ['z'], byId('z'), db)
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 3 })
    cache.compile('b', ['z'], byId('z'), db)
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 4, size: 2 })
  })
})
