/**
 * Transient PostgreSQL faults answer 503 with Retry-After, never 500
 * (docs/core.md#transient-faults): the connection of a sign-up's transaction
 * terminated between its two inserts, idle pooled connections terminated,
 * and a restart (a TCP proxy that drops every connection and refuses new
 * ones, then comes back). Each time no partial rows are left and the pool
 * recovers by itself. Only connections this file opened are terminated,
 * found by their application_name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresAdapter } from '../src/db/kysely/postgres.js'
import { runMigrations } from '../src/migrations/run-migrations.js'
import type { GatehouseOptions } from '../src/options.js'
import { expectRestartRecovery, expectSessionInsertRolledBack, faultAuth, password, signIn, signUp } from './fault-support.js'
import { postgresSchema, proxied, suffix, until } from './private-servers.js'
import { services } from './services.js'

const url = services.postgres ?? ''

describe.skipIf(!services.postgres)('PostgreSQL faults', () => {
  let admin: Awaited<ReturnType<typeof postgresSchema>>
  beforeAll(async () => {
    admin = await postgresSchema(url)
  })
  afterAll(async () => {
    await admin.drop()
  })

  async function rows(email: string) {
    const users = await admin.sql(`select id from "${admin.schema}"."user" where email = $1`, [email])
    const accounts = await admin.sql(
      `select a.id from "${admin.schema}"."account" a where a."userId" in (select id from "${admin.schema}"."user" where email = $1)`,
      [email],
    )
    return { users: users.rowCount, accounts: accounts.rowCount }
  }

  function makeAuth(connection: string, applicationName: string, hook?: () => Promise<void>, extra: Partial<GatehouseOptions> = {}) {
    return faultAuth({
      database: postgresAdapter({ connectionString: connection, application_name: applicationName, max: 4 }, { schema: admin.schema }),
      // Runs inside the sign-up transaction, after the user insert and before the account insert.
      databaseHooks: { account: { create: { before: async () => hook?.() } } },
      ...extra,
    })
  }

  it('a connection terminated mid sign-up answers 503 with Retry-After, leaves no rows, and the next request works', async () => {
    const app = `gh-fault-${suffix()}`
    let armed = true
    let terminated = 0
    const { auth, logs } = makeAuth(url, app, async () => {
      if (!armed) return
      armed = false
      // The sign-up's own backend: the one of this pool sitting inside an open transaction.
      const result = await admin.sql(
        `select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1 and state = 'idle in transaction'`,
        [app],
      )
      terminated = result.rowCount ?? 0
    })
    await runMigrations(auth)

    const response = await auth.handler(signUp('killed@example.com'))
    expect(terminated).toBe(1)
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('3')
    expect(await response.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Service temporarily unavailable. Please try again shortly.',
    })
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(await rows('killed@example.com')).toEqual({ users: 0, accounts: 0 })
    expect(logs.lines.some((line) => line.startsWith('error'))).toBe(false)
    expect(logs.lines.some((line) => line.startsWith('warn database or storage temporarily unavailable'))).toBe(true)

    const retried = await auth.handler(signUp('killed@example.com'))
    expect(retried.status).toBe(200)
    expect(await rows('killed@example.com')).toEqual({ users: 1, accounts: 1 })
    await auth.close()
  })

  it('a connection terminated right after the session insert of a sign-up: 503, no user, account or session, and the retry signs up', async () => {
    const app = `gh-fault-${suffix()}`
    await expectSessionInsertRolledBack({
      database: postgresAdapter({ connectionString: url, application_name: app, max: 4 }, { schema: admin.schema }),
      kill: async () => {
        const result = await admin.sql(
          `select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and state = 'idle in transaction'`,
          [app],
        )
        return result.rowCount ?? 0
      },
      rows,
      sessionCount: async () => Number((await admin.sql(`select count(*) as n from "${admin.schema}"."session"`)).rows[0].n),
    })
  })

  it('idle pooled connections terminated by the server are replaced; the process keeps running', async () => {
    const app = `gh-fault-${suffix()}`
    const { auth } = makeAuth(url, app)
    await runMigrations(auth)
    expect((await auth.handler(signUp('idle@example.com'))).status).toBe(200)
    // Several connections in the pool, all idle now.
    await Promise.all(Array.from({ length: 4 }, () => auth.handler(signIn('idle@example.com'))))
    const killed = await admin.sql(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [app])
    expect(killed.rowCount).toBeGreaterThan(0)
    // Gone on the server, then a moment for the pool to hear of it (its 'error' events).
    await until(async () => (await admin.sql('select 1 from pg_stat_activity where application_name = $1', [app])).rowCount === 0)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const response = await auth.handler(signIn('idle@example.com'))
    expect(response.status).toBe(200)
    await auth.close()
  })

  it('a database restart: 503 while it is down (pooled and new connections), no partial sign-up, recovery when it returns', async () => {
    const midway = await expectRestartRecovery({
      url,
      defaultPort: 5432,
      makeAuth: (connection, hook) => makeAuth(connection, `gh-fault-${suffix()}`, hook),
      rows,
      parallel: 6,
    })
    expect(midway.headers.get('retry-after')).toBe('3')
    expect(await rows('midway@example.com')).toEqual({ users: 1, accounts: 1 })
  })

  it('a connection cut while its query is in flight ("Connection terminated unexpectedly") answers 503', async () => {
    const { proxy, url: viaProxy } = await proxied(url, 5432)
    const { auth, logs } = makeAuth(viaProxy, `gh-fault-${suffix()}`, undefined, { rateLimit: { enabled: false } })
    try {
      await runMigrations(auth)
      expect((await auth.handler(signUp('inflight@example.com'))).status).toBe(200)
      proxy.stall()
      const pending = auth.handler(signIn('inflight@example.com'))
      await new Promise((resolve) => setTimeout(resolve, 200))
      await proxy.down()
      const response = await pending
      expect(response.status).toBe(503)
      expect(logs.lines.some((line) => line.includes('Connection terminated unexpectedly'))).toBe(true)
      await proxy.up()
      expect((await auth.handler(signIn('inflight@example.com'))).status).toBe(200)
    } finally {
      await auth.close()
      await proxy.close()
    }
  })

  it('auth.api calls throw AuthError 503 instead of the driver error', async () => {
    const { proxy, url: viaProxy } = await proxied(url, 5432)
    const { auth } = makeAuth(viaProxy, `gh-fault-${suffix()}`)
    try {
      await runMigrations(auth)
      await proxy.down()
      await expect(auth.api.signUpEmail({ body: { name: 'Ada', email: 'api@example.com', password } })).rejects.toMatchObject({
        name: 'AuthError',
        code: 'SERVICE_UNAVAILABLE',
        status: 503,
        headers: { 'Retry-After': '3' },
      })
    } finally {
      await proxy.up()
      await auth.close()
      await proxy.close()
    }
  })
})
