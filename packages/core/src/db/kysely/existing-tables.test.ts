import { describe, expect, it } from 'vitest'
import { fits } from './existing-tables.js'

describe('fits: which existing column types hold a field', () => {
  it('takes the types Gatehouse creates and their near relatives', () => {
    expect(fits('string', 'varchar(255)', 'mysql')).toBe(true)
    expect(fits('string', 'character varying', 'postgres')).toBe(true)
    expect(fits('number', 'bigint unsigned', 'mysql')).toBe(true)
    expect(fits('boolean', 'tinyint(1)', 'mysql')).toBe(true)
    expect(fits('date', 'timestamp', 'postgres')).toBe(true)
    expect(fits('json', 'jsonb', 'postgres')).toBe(true)
    expect(fits('date', 'datetime', 'sqlite')).toBe(true)
    expect(fits('string', 'varchar(40)', 'sqlite')).toBe(true)
  })

  it('refuses a type that would refuse or change the values', () => {
    expect(fits('string', 'int4', 'postgres')).toBe(false)
    expect(fits('string', 'uuid', 'postgres')).toBe(false)
    // SQLite's integer affinity would turn an all-digit id into a number.
    expect(fits('string', 'integer', 'sqlite')).toBe(false)
    expect(fits('boolean', 'text', 'postgres')).toBe(false)
    expect(fits('date', 'integer', 'sqlite')).toBe(false)
    expect(fits('number', 'text', 'sqlite')).toBe(false)
    expect(fits('date', 'bigint', 'mysql')).toBe(false)
  })
})
