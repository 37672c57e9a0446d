/**
 * `contains`, `starts_with` and `ends_with` match their value as literal
 * text on every dialect, with the Drizzle adapter and core's Kysely adapter
 * side by side on one database (docs/adapters.md#where-clauses). On MariaDB
 * the Drizzle adapter's connections run with `sql_mode` NO_BACKSLASH_ESCAPES, where a
 * backslash written in a string literal is itself: an ESCAPE clause written
 * `'\\'` is then two characters and refused, so every such query failed.
 * There the needles hold no backslash or quotes: mysql2 writes values into the
 * SQL text escaped with backslashes, which that mode does not read
 * (docs/adapters.md#dialect-notes), whatever the adapter does. Core's Kysely
 * adapter refuses such a connection outright (core test/mysql-sql-mode.test.ts),
 * so it runs in the server's default mode here.
 * And `insensitive` on SQLite folds ASCII only, the same with both adapters.
 */
import type { Adapter, AdapterFactory, Row } from '@gatehouse/core'
import { mysqlAdapter } from '@gatehouse/core/adapters/mysql'
import { postgresAdapter } from '@gatehouse/core/adapters/postgres'
import { sqliteAdapter } from '@gatehouse/core/adapters/sqlite'
import { conformanceSchema } from '@gatehouse/core/testing'
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2'
import { createPool as createCallbackPool } from 'mysql2'
import { createPool, type RowDataPacket } from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDrizzleAdapter } from '../src/index.js'
import { createDrizzleBackend, dialects, type DrizzleBackend } from './databases.js'

const NAMES = ['100% sure', '1000 sure', 'a_b', 'axb', 'back\\slash', 'backslash', 'wow!', 'a!b', '!%', '!!', "it's", 'say "hi"', 'Mixed!Case']

const NEEDLES = ['%', '_', '\\', '!', '!!', '!%', 'a!b', '!_', '\\%', "'", '"', 'k\\s', 'MIXED!', 'x']

const OPERATORS = ['contains', 'starts_with', 'ends_with'] as const

/** What the operator means in JavaScript: the reference every adapter must agree with. */
function reference(operator: (typeof OPERATORS)[number], name: string, needle: string, fold: boolean): boolean {
  const [haystack, value] = fold ? [name.toLowerCase(), needle.toLowerCase()] : [name, needle]
  return operator === 'contains' ? haystack.includes(value) : operator === 'starts_with' ? haystack.startsWith(value) : haystack.endsWith(value)
}

/** The needles a driver that escapes values with backslashes can send under NO_BACKSLASH_ESCAPES. */
const WITHOUT_BACKSLASH_OR_QUOTE = NEEDLES.filter((needle) => !/[\\'"]/.test(needle))

const NO_BACKSLASH_ESCAPES = "SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',NO_BACKSLASH_ESCAPES')"

async function seed(adapter: Adapter, names: readonly string[]) {
  const now = new Date(0)
  for (const [index, name] of names.entries()) {
    await adapter.create({ model: 'user', data: { id: `u${index}`, name, email: `u${index}@example.com`, emailVerified: false, image: null, createdAt: now, updatedAt: now } })
  }
}

async function namesWhere(adapter: Adapter, operator: (typeof OPERATORS)[number], value: string, insensitive: boolean): Promise<string[]> {
  const rows = await adapter.findMany<Row & { name: string }>({ model: 'user', where: { field: 'name', operator, value, insensitive } })
  return rows.map((row) => row.name).sort()
}

for (const { dialect, enabled } of dialects) {
  describe.skipIf(!enabled)(`literal text matching on ${dialect}`, () => {
    let backend: DrizzleBackend | undefined
    const adapters: Array<{ name: string; adapter: Adapter; needles: readonly string[] }> = []
    const closers: Array<() => Promise<void>> = []

    beforeAll(async () => {
      backend = await createDrizzleBackend(dialect, conformanceSchema)
      let kysely: AdapterFactory
      if (dialect === 'mysql') {
        // One connection each, so the session mode checked below is the mode every query runs under.
        const pool = createPool({ uri: backend.location, connectionLimit: 1 })
        pool.on('connection', (connection) => void connection.query(NO_BACKSLASH_ESCAPES))
        const [rows] = await pool.query<RowDataPacket[]>('SELECT @@SESSION.sql_mode AS mode')
        expect(String(rows[0]?.mode)).toContain('NO_BACKSLASH_ESCAPES')
        closers.push(() => pool.end())
        adapters.push({
          name: 'drizzle, NO_BACKSLASH_ESCAPES',
          adapter: createDrizzleAdapter(drizzleMysql(pool), { provider: 'mysql', schema: backend.tables }, conformanceSchema),
          needles: WITHOUT_BACKSLASH_OR_QUOTE,
        })
        const callbackPool = createCallbackPool({ uri: backend.location, connectionLimit: 1 })
        kysely = mysqlAdapter(callbackPool)
        closers.push(() => new Promise<void>((resolve) => callbackPool.end(() => resolve())))
      } else {
        kysely = dialect === 'postgres' ? postgresAdapter(backend.location) : sqliteAdapter(backend.location)
      }
      const drizzleAdapter = createDrizzleAdapter(backend.db, { provider: backend.provider, schema: backend.tables }, conformanceSchema)
      adapters.push({ name: 'drizzle', adapter: drizzleAdapter, needles: NEEDLES })
      const kyselyAdapter = await kysely({ schema: conformanceSchema })
      closers.push(async () => kyselyAdapter.close?.())
      adapters.push({ name: 'kysely', adapter: kyselyAdapter, needles: NEEDLES })
      await seed(drizzleAdapter, NAMES)
    })
    afterAll(async () => {
      for (const close of closers) await close()
      await backend?.drop()
    })

    it('contains, starts_with and ends_with take % _ \\ ! and quotes as text, case-sensitive and insensitive', async () => {
      for (const { name, adapter, needles } of adapters) {
        for (const operator of OPERATORS) {
          for (const needle of needles) {
            for (const insensitive of [false, true]) {
              const expected = NAMES.filter((row) => reference(operator, row, needle, insensitive)).sort()
              expect(await namesWhere(adapter, operator, needle, insensitive), `${name}: ${operator} ${JSON.stringify(needle)}${insensitive ? ' insensitive' : ''}`).toEqual(expected)
            }
          }
        }
      }
    })

    it.runIf(dialect === 'sqlite')('insensitive folds ASCII only on SQLite, with either adapter: É and é stay apart', async () => {
      const adapter = adapters[0]?.adapter
      if (!adapter) throw new Error('no adapter')
      const now = new Date(0)
      for (const [id, name] of [['accent-upper', 'Élan'], ['accent-lower', 'élan']]) {
        await adapter.create({ model: 'user', data: { id, name, email: `${id}@example.com`, emailVerified: false, image: null, createdAt: now, updatedAt: now } })
      }
      for (const { name, adapter } of adapters) {
        const found = async (where: { operator?: 'eq' | 'starts_with' | 'contains'; value: string }) =>
          (await adapter.findMany<Row & { name: string }>({ model: 'user', where: { field: 'name', ...where, insensitive: true } })).map((row) => row.name)
        // SQLite's lower() folds A-Z only (docs/adapters.md#dialect-notes): under-matching, never a wrong match.
        expect(await found({ value: 'élan' }), name).toEqual(['élan'])
        expect(await found({ operator: 'starts_with', value: 'ÉL' }), name).toEqual(['Élan'])
        expect(await found({ operator: 'contains', value: 'LAN' }), name).toEqual(expect.arrayContaining(['Élan', 'élan']))
      }
    })
  })
}
