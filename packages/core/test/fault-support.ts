/**
 * What the fault suites assert: an auth whose log lines are captured, a
 * fault run inside the sign-up transaction, and the two scenarios every SQL
 * backend goes through (a session insert rolled back, a database restart).
 * The servers and connections they break are in private-servers.ts; only
 * connections a test opened itself are terminated.
 */
import { expect } from 'vitest'
import { createAuth } from '../src/auth/create-auth.js'
import type { Adapter, AdapterFactory, Row } from '../src/db/adapter.js'
import { runMigrations } from '../src/migrations/run-migrations.js'
import type { GatehouseOptions } from '../src/options.js'
import { memoryStorage } from '../src/storage/memory-storage.js'
import { captureLogs } from './capture-logs.js'
import { BASE, SECRET, request } from './helpers.js'
import { proxied } from './private-servers.js'
import { afterInsertInTransaction } from './transaction-pause.js'

export const password = 'correct horse battery staple'

/** What `auth.api` throws for a `TRANSIENT` database failure (docs/core.md#transient-faults). */
export const serviceUnavailable = { name: 'AuthError', code: 'SERVICE_UNAVAILABLE', status: 503, headers: { 'Retry-After': '3' } } as const
let client = 0
/** Each request from a client of its own: these suites are about faults, not the sign-in rate limit (docs/rate-limits.md). */
const clientAddress = () => ({ 'x-forwarded-for': `198.51.100.${(client = (client % 250) + 1)}` })
export const signUp = (email: string) => request('/api/auth/sign-up/email', { json: { name: 'Ada', email, password }, headers: clientAddress() })
export const signIn = (email: string) => request('/api/auth/sign-in/email', { json: { email, password }, headers: clientAddress() })

/** An email-and-password auth on `database` whose every log line is captured. */
export function faultAuth(options: Partial<GatehouseOptions> & Pick<GatehouseOptions, 'database'>) {
  const logs = captureLogs()
  // One proxy in front writes x-forwarded-for (docs/rate-limits.md#behind-a-reverse-proxy): each test request is a client of its own.
  const advanced = { ipAddress: { trustedProxyCount: 1 } }
  const auth = createAuth({ baseURL: BASE, secret: SECRET, logger: logs.logger, emailAndPassword: { enabled: true }, advanced, ...options })
  return { auth, logs }
}

/** The real adapter, with `fault` run inside a transaction right after its session insert has returned. */
export function afterSessionInsert(factory: AdapterFactory, fault: () => Promise<void>): AdapterFactory {
  return afterInsertInTransaction(factory, ({ model }) => model === 'session', fault)
}

/**
 * A sign-up whose connection `kill` cuts right after its session insert: 503,
 * no user, account or session row, nothing in secondary storage, no
 * after-hook; the retry signs up. `kill` answers how many connections it cut.
 */
export async function expectSessionInsertRolledBack(backend: {
  database: AdapterFactory
  kill: () => Promise<number>
  rows: (email: string) => Promise<{ users: number | null; accounts: number | null }>
  sessionCount: () => Promise<number>
}) {
  let armed = true
  let killed = 0
  const committed: string[] = []
  const storage = memoryStorage()
  const { auth, logs } = faultAuth({
    database: afterSessionInsert(backend.database, async () => {
      if (!armed) return
      armed = false
      killed = await backend.kill()
    }),
    secondaryStorage: storage,
    // Counters would share the storage; off, it holds only session copies.
    rateLimit: { enabled: false },
    // After-hooks run once the transaction has committed, never for the rolled-back attempt.
    databaseHooks: { session: { create: { after: (row) => void committed.push(String(row.userId)) } } },
  })
  await runMigrations(auth)
  const before = await backend.sessionCount()

  const response = await auth.handler(signUp('session-killed@example.com'))
  expect(killed).toBe(1)
  expect(response.status).toBe(503)
  expect(response.headers.get('retry-after')).toBe('3')
  expect(await response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
  expect(response.headers.get('set-cookie')).toBeNull()
  expect(await backend.rows('session-killed@example.com')).toEqual({ users: 0, accounts: 0 })
  expect(await backend.sessionCount()).toBe(before)
  expect(committed).toEqual([])
  expect(storage.size()).toBe(0)
  expect(logs.lines.some((line) => line.startsWith('error'))).toBe(false)

  const retried = await auth.handler(signUp('session-killed@example.com'))
  expect(retried.status).toBe(200)
  const body = await retried.json()
  expect(body.token).toEqual(expect.any(String))
  expect(retried.headers.get('set-cookie')).toContain('session_token=')
  expect(await backend.rows('session-killed@example.com')).toEqual({ users: 1, accounts: 1 })
  expect(await backend.sessionCount()).toBe(before + 1)
  expect(committed).toEqual([body.user.id])
  expect(storage.size()).toBe(1)
  await auth.close()
}

/**
 * A database restart, played by a {@link proxied} connection to `url`: it
 * goes down between a sign-up's user and account inserts (503, no partial
 * rows), stays down for `parallel` sign-ins on pooled or new connections
 * (every one a 503, none a 500), and once it is up again a sign-in and the
 * interrupted sign-up work. `makeAuth` runs `hook` inside the sign-up
 * transaction, between the two inserts. Answers the interrupted sign-up's reply.
 */
export async function expectRestartRecovery(backend: {
  url: string
  defaultPort: number
  makeAuth: (url: string, hook: () => Promise<void>) => ReturnType<typeof faultAuth>
  rows: (email: string) => Promise<{ users: number | null; accounts: number | null }>
  parallel: number
}): Promise<Response> {
  const { proxy, url } = await proxied(backend.url, backend.defaultPort)
  let dropMidway = false
  const { auth } = backend.makeAuth(url, async () => {
    if (!dropMidway) return
    dropMidway = false
    await proxy.down()
  })
  try {
    await runMigrations(auth)
    expect((await auth.handler(signUp('restart@example.com'))).status).toBe(200)

    // Down between the user and the account insert: all or nothing.
    dropMidway = true
    const midway = await auth.handler(signUp('midway@example.com'))
    expect(midway.status).toBe(503)
    expect(await backend.rows('midway@example.com')).toEqual({ users: 0, accounts: 0 })

    // Still down: every request, on a pooled or a new connection, is a 503, none a 500.
    const statuses = await Promise.all(Array.from({ length: backend.parallel }, () => auth.handler(signIn('restart@example.com')).then((r) => r.status)))
    expect(statuses).toEqual(statuses.map(() => 503))

    await proxy.up()
    expect((await auth.handler(signIn('restart@example.com'))).status).toBe(200)
    expect((await auth.handler(signUp('midway@example.com'))).status).toBe(200)
    return midway
  } finally {
    await auth.close()
    await proxy.close()
  }
}
