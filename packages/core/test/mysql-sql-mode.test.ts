/**
 * A MySQL/MariaDB session in NO_BACKSLASH_ESCAPES is refused before its
 * first statement (docs/adapters.md#dialect-notes): mysql2 escapes values
 * with backslashes, which that mode reads as plain characters, so a quote in
 * a value would end its string literal and the rest would run as SQL.
 */
import { createPool, type Pool } from 'mysql2'
import { afterEach, describe, expect, it } from 'vitest'
import { coreSchema } from '../src/db/schema.js'
import { mysqlAdapter } from '../src/db/kysely/mysql.js'
import { services } from './services.js'

const INJECTION = "' union select 0x494e4a4543544544 -- "

describe.skipIf(!services.mysql)('mysql sql_mode', () => {
  const pools: Pool[] = []
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => new Promise((resolve) => pool.end(resolve))))
  })

  /** A pool whose every new connection first runs `mode` (as a server or an app's pool setting would). */
  function poolWith(mode: string | null): Pool {
    const pool = createPool({ uri: services.mysql ?? '', timezone: 'Z', supportBigNumbers: true, bigNumberStrings: false, connectionLimit: 2 })
    if (mode) pool.on('connection', (connection) => void connection.query(mode))
    pools.push(pool)
    return pool
  }

  it('refuses a connection in NO_BACKSLASH_ESCAPES, naming the mode, before any value is sent', async () => {
    const adapter = await mysqlAdapter(poolWith("SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',NO_BACKSLASH_ESCAPES')"))({ schema: coreSchema })
    await expect(adapter.findOne({ model: 'user', where: { field: 'email', value: INJECTION } })).rejects.toThrow(/NO_BACKSLASH_ESCAPES/)
  })

  it('a connection in the default mode is accepted (control)', async () => {
    const adapter = await mysqlAdapter(poolWith(null))({ schema: coreSchema })
    // The statement reaches the server (whether the table exists here or not): the mode check lets it through.
    const outcome = await adapter.findOne({ model: 'user', where: { field: 'email', value: INJECTION } }).then(
      () => 'answered',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    )
    expect(outcome).not.toMatch(/NO_BACKSLASH_ESCAPES/)
  })
})
