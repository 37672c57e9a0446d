import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { withJsRows, type RawCapableStatement } from './sqlite-rows.js'

function database() {
  const db = new Database(':memory:')
  db.exec(`create table "item" ("id" text primary key, "name" text, "count" integer, "blob" blob, "at" text)`)
  const insert = db.prepare('insert into "item" values (?, ?, ?, ?, ?)')
  insert.run('a', 'first', 1, Buffer.from([1, 2]), '2026-01-02T03:04:05.678Z')
  insert.run('b', null, 2, null, null)
  return db
}

const prepare = (db: Database.Database, sql: string): RawCapableStatement => db.prepare(sql)

describe('withJsRows', () => {
  it.each([
    'select * from "item" order by "id"',
    'select "name", "id" from "item" where "count" > ? order by "id"',
    'select "id" as "x", "name" as "x" from "item" order by "id"',
    'select count(*) as "n", max("count") as "top" from "item" where "count" > ?',
    'select "id", "name" as "x y""z\\" from "item" order by "id"',
  ])('answers what better-sqlite3 answers, keys in the same order: %s', (sql) => {
    const db = database()
    const parameters = sql.includes('?') ? [0] : []
    const native = prepare(db, sql).all(parameters) as Array<Record<string, unknown>>
    const built = withJsRows(prepare(db, sql)).all(parameters) as Array<Record<string, unknown>>
    expect(built).toEqual(native)
    expect(built.map((row) => Object.keys(row))).toEqual(native.map((row) => Object.keys(row)))
    expect([...withJsRows(prepare(db, sql)).iterate(parameters)]).toEqual(native)
  })

  it('leaves statements that return no rows to better-sqlite3, and they still write', () => {
    const db = database()
    const insert = prepare(db, 'insert into "item" ("id") values (?)')
    expect(withJsRows(insert)).toBe(insert)
    expect(withJsRows(insert).run(['c']).changes).toBe(1)
  })

  it('runs a reader that writes (returning) and reports its rows', () => {
    const db = database()
    const statement = withJsRows(prepare(db, 'delete from "item" where "id" = ? returning "id", "count"'))
    expect(statement.reader).toBe(true)
    expect(statement.all(['a'])).toEqual([{ id: 'a', count: 1 }])
    expect(prepare(db, 'select count(*) as n from "item"').all([])).toEqual([{ n: 1 }])
  })

  it('never turns a column named __proto__ into a prototype', () => {
    const db = database()
    const sql = 'select "id" as "__proto__" from "item" order by "id"'
    const rows = withJsRows(prepare(db, sql)).all([]) as Array<Record<string, unknown>>
    expect(rows).toEqual(prepare(db, sql).all([]))
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype)
  })
})
