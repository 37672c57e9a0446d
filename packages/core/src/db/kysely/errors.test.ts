import { describe, expect, it } from 'vitest'
import { DatabaseError } from '../adapter.js'
import { constraintCode, toDatabaseError } from './errors.js'

function driverError(fields: Record<string, unknown>): Error {
  return Object.assign(new Error('driver message'), fields)
}

describe('constraintCode', () => {
  it('reads better-sqlite3 extended result codes', () => {
    expect(constraintCode(driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' }), 'sqlite')).toBe('UNIQUE_VIOLATION')
    expect(constraintCode(driverError({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }), 'sqlite')).toBe('UNIQUE_VIOLATION')
    expect(constraintCode(driverError({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }), 'sqlite')).toBe('FOREIGN_KEY_VIOLATION')
    expect(constraintCode(driverError({ code: 'SQLITE_CONSTRAINT_NOTNULL' }), 'sqlite')).toBe('NOT_NULL_VIOLATION')
    expect(constraintCode(driverError({ code: 'SQLITE_BUSY' }), 'sqlite')).toBeUndefined()
  })

  it('reads PostgreSQL SQLSTATEs', () => {
    expect(constraintCode(driverError({ code: '23505' }), 'postgres')).toBe('UNIQUE_VIOLATION')
    expect(constraintCode(driverError({ code: '23503' }), 'postgres')).toBe('FOREIGN_KEY_VIOLATION')
    expect(constraintCode(driverError({ code: '23502' }), 'postgres')).toBe('NOT_NULL_VIOLATION')
    expect(constraintCode(driverError({ code: '42P01' }), 'postgres')).toBeUndefined()
  })

  it('reads MySQL error numbers', () => {
    expect(constraintCode(driverError({ errno: 1062, code: 'ER_DUP_ENTRY' }), 'mysql')).toBe('UNIQUE_VIOLATION')
    expect(constraintCode(driverError({ errno: 1452 }), 'mysql')).toBe('FOREIGN_KEY_VIOLATION')
    expect(constraintCode(driverError({ errno: 1451 }), 'mysql')).toBe('FOREIGN_KEY_VIOLATION')
    expect(constraintCode(driverError({ errno: 1048 }), 'mysql')).toBe('NOT_NULL_VIOLATION')
    expect(constraintCode(driverError({ errno: 1364 }), 'mysql')).toBe('NOT_NULL_VIOLATION')
    expect(constraintCode(driverError({ errno: 1146 }), 'mysql')).toBeUndefined()
  })

  it('does not read another dialect’s codes', () => {
    expect(constraintCode(driverError({ code: '23505' }), 'sqlite')).toBeUndefined()
    expect(constraintCode('not an object', 'postgres')).toBeUndefined()
  })
})

describe('toDatabaseError', () => {
  it('wraps a violation, keeping the driver error as cause', () => {
    const cause = driverError({ code: '23505' })
    const error = toDatabaseError(cause, 'postgres', 'user')
    expect(error).toBeInstanceOf(DatabaseError)
    expect(error).toMatchObject({ code: 'UNIQUE_VIOLATION', message: 'Unique constraint violated on "user"', cause })
  })

  it('returns other errors unchanged', () => {
    const other = driverError({ code: '42601' })
    expect(toDatabaseError(other, 'postgres')).toBe(other)
    const already = new DatabaseError('NOT_NULL_VIOLATION', 'x')
    expect(toDatabaseError(already, 'mysql')).toBe(already)
  })
})
