/**
 * Transient MariaDB faults answer 503 with Retry-After, never 500
 * (docs/core.md#transient-faults): the connection of a sign-up's transaction
 * killed (`KILL <id>`) between its two inserts, idle pooled connections
 * killed, and a restart simulated by a TCP proxy. No partial rows, and the
 * pool recovers by itself. Only connections to this file's own database are killed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mysqlAdapter } from '../src/db/kysely/mysql.js'
import { runMigrations } from '../src/migrations/run-migrations.js'
import { expectRestartRecovery, expectSessionInsertRolledBack, faultAuth, signIn, signUp } from './fault-support.js'
import { mysqlDatabase, until } from './private-servers.js'
import { services } from './services.js'

describe.skipIf(!services.mysql)('MariaDB faults', () => {
  let admin: Awaited<ReturnType<typeof mysqlDatabase>>
  beforeAll(async () => {
    admin = await mysqlDatabase(services.mysql ?? '')
  })
  afterAll(async () => {
    await admin.drop()
  })

  async function rows(email: string) {
    const users = (await admin.sql(`select id from \`${admin.database}\`.\`user\` where email = ?`, [email])) as unknown[]
    const accounts = (await admin.sql(
      `select a.id from \`${admin.database}\`.\`account\` a join \`${admin.database}\`.\`user\` u on u.id = a.userId where u.email = ?`,
      [email],
    )) as unknown[]
    return { users: users.length, accounts: accounts.length }
  }

  /** Thread ids of this database's connections, optionally only those inside an open InnoDB transaction. */
  async function connections(inTransaction: boolean): Promise<number[]> {
    const query = inTransaction
      ? 'select p.id from information_schema.processlist p join information_schema.innodb_trx t on t.trx_mysql_thread_id = p.id where p.db = ?'
      : 'select id from information_schema.processlist where db = ? and id <> connection_id()'
    const found = (await admin.sql(query, [admin.database])) as Array<{ id: number }>
    return found.map((row) => Number(row.id))
  }

  function makeAuth(uri: string, hook?: () => Promise<void>) {
    return faultAuth({ database: mysqlAdapter(uri), databaseHooks: { account: { create: { before: async () => hook?.() } } } })
  }

  it('a connection killed mid sign-up answers 503 with Retry-After, leaves no rows, and the next request works', async () => {
    let armed = true
    let killed: number[] = []
    const { auth, logs } = makeAuth(admin.url, async () => {
      if (!armed) return
      armed = false
      killed = await connections(true)
      for (const id of killed) await admin.sql(`kill ${id}`)
    })
    await runMigrations(auth)

    const response = await auth.handler(signUp('killed@example.com'))
    expect(killed).toHaveLength(1)
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('3')
    expect(await response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    expect(await rows('killed@example.com')).toEqual({ users: 0, accounts: 0 })
    expect(logs.lines.some((line) => line.startsWith('error'))).toBe(false)

    const retried = await auth.handler(signUp('killed@example.com'))
    expect(retried.status).toBe(200)
    expect(await rows('killed@example.com')).toEqual({ users: 1, accounts: 1 })
    await auth.close()
  })

  it('a connection killed right after the session insert of a sign-up: 503, no user, account or session, and the retry signs up', async () => {
    await expectSessionInsertRolledBack({
      database: mysqlAdapter(admin.url),
      kill: async () => {
        const killed = await connections(true)
        for (const id of killed) await admin.sql(`kill ${id}`)
        return killed.length
      },
      rows,
      sessionCount: async () => {
        const [row] = (await admin.sql(`select count(*) as n from \`${admin.database}\`.\`session\``)) as Array<{ n: number }>
        return Number(row?.n)
      },
    })
  })

  it('idle pooled connections killed by the server are replaced; the next request works', async () => {
    const { auth } = makeAuth(admin.url)
    await runMigrations(auth)
    expect((await auth.handler(signUp('idle@example.com'))).status).toBe(200)
    await Promise.all(Array.from({ length: 4 }, () => auth.handler(signIn('idle@example.com'))))
    const ids = await connections(false)
    expect(ids.length).toBeGreaterThan(0)
    for (const id of ids) await admin.sql(`kill ${id}`)
    // Gone on the server, then a moment for the pool to hear of it.
    await until(async () => (await connections(false)).length === 0)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect((await auth.handler(signIn('idle@example.com'))).status).toBe(200)
    await auth.close()
  })

  it('a database restart: 503 while it is down, no partial sign-up, recovery when it returns', async () => {
    await expectRestartRecovery({ url: admin.url, defaultPort: 3306, makeAuth, rows, parallel: 4 })
  })
})
