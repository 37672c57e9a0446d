import { describe, expect, it } from 'vitest'
import { DatabaseError } from '../adapter.js'
import { constraintCode, toDatabaseError, transientCode } from './errors.js'

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

  it('reads libsql extended codes, whose code is the primary one', () => {
    const libsql = (extendedCode: string) => driverError({ code: extendedCode.replace(/_[A-Z]+$/, ''), extendedCode })
    expect(constraintCode(libsql('SQLITE_CONSTRAINT_UNIQUE'), 'sqlite')).toBe('UNIQUE_VIOLATION')
    expect(constraintCode(libsql('SQLITE_CONSTRAINT_PRIMARYKEY'), 'sqlite')).toBe('UNIQUE_VIOLATION')
    expect(constraintCode(libsql('SQLITE_CONSTRAINT_FOREIGNKEY'), 'sqlite')).toBe('FOREIGN_KEY_VIOLATION')
    expect(constraintCode(libsql('SQLITE_CONSTRAINT_NOTNULL'), 'sqlite')).toBe('NOT_NULL_VIOLATION')
    expect(transientCode(driverError({ code: 'SQLITE_BUSY', extendedCode: 'SQLITE_BUSY' }), 'sqlite')).toBe('TRANSIENT')
  })

  it('reads postgres-js connection codes', () => {
    for (const code of ['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']) {
      expect(transientCode(driverError({ code }), 'postgres')).toBe('TRANSIENT')
    }
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

describe('transientCode', () => {
  it('reads PostgreSQL rollbacks, lock and statement timeouts, shutdowns and connection exceptions', () => {
    expect(transientCode(driverError({ code: '40P01' }), 'postgres')).toBe('DEADLOCK')
    expect(transientCode(driverError({ code: '40001' }), 'postgres')).toBe('DEADLOCK')
    for (const code of ['55P03', '57014', '57P01', '57P03', '53300', '08006', '08003']) {
      expect(transientCode(driverError({ code }), 'postgres')).toBe('TRANSIENT')
    }
    expect(transientCode(driverError({ code: '23505' }), 'postgres')).toBeUndefined()
    expect(transientCode(driverError({ code: '42601' }), 'postgres')).toBeUndefined()
  })

  it('reads MySQL error numbers', () => {
    expect(transientCode(driverError({ errno: 1213, code: 'ER_LOCK_DEADLOCK' }), 'mysql')).toBe('DEADLOCK')
    expect(transientCode(driverError({ errno: 1205, code: 'ER_LOCK_WAIT_TIMEOUT' }), 'mysql')).toBe('TRANSIENT')
    expect(transientCode(driverError({ errno: 1040 }), 'mysql')).toBe('TRANSIENT')
    expect(transientCode(driverError({ errno: 1062 }), 'mysql')).toBeUndefined()
  })

  it('reads better-sqlite3 busy and locked codes', () => {
    expect(transientCode(driverError({ code: 'SQLITE_BUSY' }), 'sqlite')).toBe('TRANSIENT')
    expect(transientCode(driverError({ code: 'SQLITE_BUSY_SNAPSHOT' }), 'sqlite')).toBe('DEADLOCK')
    expect(transientCode(driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' }), 'sqlite')).toBeUndefined()
  })

  it('reads a dropped or refused connection on any dialect', () => {
    for (const dialect of ['sqlite', 'postgres', 'mysql'] as const) {
      expect(transientCode(driverError({ code: 'ECONNRESET', errno: -104 }), dialect)).toBe('TRANSIENT')
      expect(transientCode(driverError({ code: 'ECONNREFUSED', errno: -111 }), dialect)).toBe('TRANSIENT')
    }
    expect(transientCode(driverError({ code: 'PROTOCOL_CONNECTION_LOST', fatal: true }), 'mysql')).toBe('TRANSIENT')
    expect(transientCode('not an object', 'postgres')).toBeUndefined()
  })
})

describe('toDatabaseError for deadlocks and transient failures', () => {
  it('wraps them with the driver message, which names no row data', () => {
    const cause = driverError({ errno: 1213, message: 'Deadlock found when trying to get lock; try restarting transaction' })
    const error = toDatabaseError(cause, 'mysql', 'billingOrder')
    expect(error).toBeInstanceOf(DatabaseError)
    expect(error).toMatchObject({
      code: 'DEADLOCK',
      message: 'Transaction rolled back by the database (deadlock or serialization failure) on "billingOrder": Deadlock found when trying to get lock; try restarting transaction',
      cause,
    })
    expect(toDatabaseError(driverError({ code: 'ECONNRESET' }), 'postgres')).toMatchObject({ code: 'TRANSIENT', message: 'Database temporarily unavailable: driver message' })
  })
})

describe('transientCode for faults that carry no code', () => {
  it('reads node-postgres connection messages', () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated',
      'Connection terminated due to connection timeout',
      'Client has encountered a connection error and is not queryable',
      'timeout exceeded when trying to connect',
    ]) {
      expect(transientCode(new Error(message), 'postgres')).toBe('TRANSIENT')
    }
    expect(transientCode(new Error('relation "user" does not exist'), 'postgres')).toBeUndefined()
  })

  it('reads mysql2 connection-level faults', () => {
    expect(transientCode(new Error("Can't add new command when connection is in closed state"), 'mysql')).toBe('TRANSIENT')
    expect(transientCode(driverError({ code: 'ER_SERVER_SHUTDOWN', errno: 1053 }), 'mysql')).toBe('TRANSIENT')
    expect(transientCode(driverError({ code: 'ER_CONNECTION_KILLED', errno: 1927 }), 'mysql')).toBe('TRANSIENT')
    expect(transientCode(driverError({ errno: 2013 }), 'mysql')).toBe('TRANSIENT')
    expect(transientCode(driverError({ code: 'SOMETHING_NEW', fatal: true }), 'mysql')).toBe('TRANSIENT')
    expect(transientCode(driverError({ code: 'ER_PARSE_ERROR', errno: 1064, fatal: false }), 'mysql')).toBeUndefined()
  })

  it('reads an AggregateError whose every attempt was refused (a host name with several addresses)', () => {
    const refused = new AggregateError([driverError({ code: 'ECONNREFUSED' }), driverError({ code: 'ECONNREFUSED' })], '')
    expect(transientCode(refused, 'postgres')).toBe('TRANSIENT')
    const mixed = new AggregateError([driverError({ code: 'ECONNREFUSED' }), new Error('bad')], '')
    expect(transientCode(mixed, 'postgres')).toBeUndefined()
  })
})
