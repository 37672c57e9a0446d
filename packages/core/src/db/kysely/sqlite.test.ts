import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { withStatementCache } from './sqlite.js'

describe('the prepared-statement cache', () => {
  it('prepares each SQL string once, evicts the least recently used, and still runs correctly', () => {
    const raw = new Database(':memory:')
    let prepared = 0
    const counting = new Proxy(raw, {
      get(target, property, receiver) {
        if (property === 'prepare') {
          return (sql: string) => {
            prepared++
            return target.prepare(sql)
          }
        }
        return Reflect.get(target, property, receiver)
      },
    })
    const db = withStatementCache(counting, 2)
    db.prepare('create table t (x integer)').run([])
    const insert = db.prepare('insert into t values (?)')
    insert.run([1])
    expect(db.prepare('insert into t values (?)')).toBe(insert)
    db.prepare('insert into t values (?)').run([2])
    expect(db.prepare('select count(*) as n from t').all([])).toEqual([{ n: 2 }])
    expect(prepared).toBe(3)
    db.prepare('select 1')
    db.prepare('select 2')
    expect(db.prepare('insert into t values (?)')).not.toBe(insert)
    expect(prepared).toBe(6)
    db.close()
    expect(raw.open).toBe(false)
  })
})
