import { createClient } from '@libsql/client'
import { entityKind } from 'drizzle-orm'
import Database from 'better-sqlite3'
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3'
import { drizzle as drizzleLibsql } from 'drizzle-orm/libsql'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { drizzle as drizzlePostgresJs } from 'drizzle-orm/postgres-js'
import pg from 'pg'
import postgres from 'postgres'
import { describe, expect, it } from 'vitest'
import { affectedRows, detectDriver } from './provider.js'

describe('detectDriver', () => {
  it('reads the driver from the Drizzle database (no connection is opened)', () => {
    const pool = new pg.Pool()
    const client = postgres({ max: 1 })
    const sqlite = new Database(':memory:')
    const libsql = createClient({ url: ':memory:' })
    try {
      expect(detectDriver(drizzlePg(pool), 'pg')).toBe('node-postgres')
      expect(detectDriver(drizzlePostgresJs(client), 'pg')).toBe('postgres-js')
      expect(detectDriver(drizzleSqlite(sqlite), 'sqlite')).toBe('better-sqlite3')
      expect(detectDriver(drizzleLibsql(libsql), 'sqlite')).toBe('libsql')
    } finally {
      sqlite.close()
      libsql.close()
    }
  })

  it('refuses a provider that does not match the driver, naming both', () => {
    const sqlite = new Database(':memory:')
    try {
      expect(() => detectDriver(drizzleSqlite(sqlite), 'pg')).toThrow(`drizzleAdapter: the database runs on better-sqlite3, whose provider is 'sqlite', not "pg"`)
    } finally {
      sqlite.close()
    }
  })

  it('refuses a driver it does not support, and an object that is no Drizzle database', () => {
    // Drizzle's neon-http database, as far as the adapter can tell.
    class NeonHttpDatabase {
      static readonly [entityKind] = 'NeonHttpDatabase'
    }
    expect(() => detectDriver(new NeonHttpDatabase(), 'pg')).toThrow(
      "drizzleAdapter: the database is a NeonHttpDatabase; the supported drivers are node-postgres or postgres-js (provider 'pg'), mysql2 ('mysql'), better-sqlite3 or libsql ('sqlite') (docs/adapters.md#using-drizzle)",
    )
    expect(() => detectDriver({}, 'pg')).toThrow('drizzleAdapter: the database is not a Drizzle database; the supported drivers are')
    expect(() => detectDriver(null, 'pg')).toThrow('drizzleAdapter: the database is not a Drizzle database; the supported drivers are')
  })
})

describe('affectedRows', () => {
  it("reads each driver's own count", () => {
    expect(affectedRows('node-postgres', { rowCount: 14 })).toBe(14)
    // postgres-js answers a write with an empty row list carrying `count`, and no `rowCount`.
    expect(affectedRows('postgres-js', Object.assign([], { count: 14 }))).toBe(14)
    expect(affectedRows('mysql2', [{ affectedRows: 14 }, undefined])).toBe(14)
    expect(affectedRows('better-sqlite3', { changes: 14 })).toBe(14)
    expect(affectedRows('libsql', { rowsAffected: 14 })).toBe(14)
  })
})
