import { describe, expect, it } from 'vitest'
import { fromColumnValue, toColumnValue } from './values.js'

const date = new Date('2026-01-02T03:04:05.678Z')

describe('toColumnValue', () => {
  it('stores dates as ISO-8601 text on SQLite and as Date elsewhere', () => {
    expect(toColumnValue({ type: 'date' }, date, 'sqlite')).toBe('2026-01-02T03:04:05.678Z')
    expect(toColumnValue({ type: 'date' }, date, 'postgres')).toEqual(date)
    expect(toColumnValue({ type: 'date' }, '2026-01-02T03:04:05.678Z', 'mysql')).toEqual(date)
    expect(() => toColumnValue({ type: 'date' }, 'not a date', 'sqlite')).toThrow(TypeError)
  })

  it('stores booleans as 0/1 on SQLite and MySQL and as booleans on PostgreSQL', () => {
    expect(toColumnValue({ type: 'boolean' }, true, 'sqlite')).toBe(1)
    expect(toColumnValue({ type: 'boolean' }, false, 'mysql')).toBe(0)
    expect(toColumnValue({ type: 'boolean' }, true, 'postgres')).toBe(true)
  })

  it('stores JSON as text, so a string and an object stay distinguishable', () => {
    expect(toColumnValue({ type: 'json' }, { a: [1] }, 'postgres')).toBe('{"a":[1]}')
    expect(toColumnValue({ type: 'json' }, 'text', 'sqlite')).toBe('"text"')
  })

  it('keeps null as null for every type', () => {
    for (const type of ['string', 'number', 'boolean', 'date', 'json'] as const) {
      expect(toColumnValue({ type }, null, 'sqlite')).toBeNull()
    }
  })
})

describe('fromColumnValue', () => {
  it('reads ISO text and Date back as Date', () => {
    expect(fromColumnValue({ type: 'date' }, '2026-01-02T03:04:05.678Z')).toEqual(date)
    expect(fromColumnValue({ type: 'date' }, date)).toBe(date)
  })

  it('reads 0/1 back as booleans', () => {
    expect(fromColumnValue({ type: 'boolean' }, 1)).toBe(true)
    expect(fromColumnValue({ type: 'boolean' }, 0)).toBe(false)
    expect(fromColumnValue({ type: 'boolean' }, false)).toBe(false)
  })

  it('reads int8 strings (pg) and bigints back as numbers', () => {
    expect(fromColumnValue({ type: 'number', bigint: true }, '1767225600000')).toBe(1_767_225_600_000)
    expect(fromColumnValue({ type: 'number', bigint: true }, 1_099_511_627_776n)).toBe(2 ** 40)
    expect(fromColumnValue({ type: 'number' }, 1.5)).toBe(1.5)
  })

  it('parses JSON text and decodes byte strings', () => {
    expect(fromColumnValue({ type: 'json' }, '{"a":[1,null]}')).toEqual({ a: [1, null] })
    expect(fromColumnValue({ type: 'string' }, new TextEncoder().encode('héllo'))).toBe('héllo')
    expect(fromColumnValue({ type: 'string' }, undefined)).toBeNull()
  })
})
