/**
 * Store failures over real processes (docs/deployment.md#when-a-store-is-down):
 * a private Redis killed and restarted or cut off, and PostgreSQL cut and refused
 * through a TCP proxy. Nothing answers 500; the database's absence is a 503
 * with Retry-After; a revocation that cannot reach Redis is a 503 that
 * changes nothing, so no process accepts a session reported revoked; a
 * multi-step write cut mid-way leaves no partial rows; everything recovers by itself. The shared services are never touched.
 * Skipped without GATEHOUSE_TEST_POSTGRES_URL.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { privateRedis, proxied, type PrivateRedis, type TcpProxy } from '../../../packages/core/test/private-servers.js'
import { cookiesOf } from './harness.js'
import { freshPostgres, nextIp, PASSWORD, services, signUp, startProcess, type ServerProcess, type TestDatabase } from './multi-process-harness.js'

const enabled = Boolean(services.postgres)
if (!enabled) console.log('skipped  fault suite: GATEHOUSE_TEST_POSTGRES_URL is not set')
// The Redis fault runs a private redis-server, never the shared one.
const redisServer = spawnSync('redis-server', ['--version']).status === 0
if (enabled && !redisServer) console.log('skipped  Redis fault test: redis-server is not on PATH')

async function until(check: () => Promise<boolean>, seconds: number): Promise<boolean> {
  const deadline = performance.now() + seconds * 1000
  while (performance.now() < deadline) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return false
}

describe.skipIf(!enabled)('faults over processes', () => {
  let dir = ''
  let db: TestDatabase
  let servers: ServerProcess[] = []
  let redis: PrivateRedis | undefined
  let proxy: TcpProxy | undefined

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-faults-'))
    db = await freshPostgres(services.postgres ?? '')
  })
  afterEach(async (context) => {
    // A failure says more with what the servers printed.
    if (context.task.result?.state === 'fail') for (const server of servers) console.log(server.run.output())
    await Promise.all(servers.map((server) => server.stop()))
    servers = []
    await redis?.kill().catch(() => undefined)
    redis = undefined
    await proxy?.close()
    proxy = undefined
  })
  afterAll(async () => {
    await db?.drop()
    await rm(dir, { recursive: true, force: true })
  })

  const getSession = (server: ServerProcess, cookie: string) => server.call('/api/auth/get-session', { cookie })
  const signIn = (server: ServerProcess, email: string, ip = nextIp()) => server.call('/api/auth/sign-in/email', { json: { email, password: PASSWORD }, ip })

  it.skipIf(!redisServer)('Redis killed: sessions are read from the database, credential routes fail closed with 503, nothing answers 500, and it recovers', async () => {
    redis = await privateRedis()
    const env = { DATABASE_URL: db.url, REDIS_URL: redis.url }
    // One after the other: the first migrates the empty database (starting together is multi-process.test.ts's).
    servers = [await startProcess(env), await startProcess(env)]
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const email = `redis-down-${Date.now()}@example.com`
    const { cookie } = await signUp(a, email)
    expect(((await (await getSession(b, cookie)).json()) as { user: { email: string } }).user.email).toBe(email)

    await redis.kill()
    const statuses: number[] = []
    for (const server of servers) {
      const session = await getSession(server, cookie)
      statuses.push(session.status)
      expect(session.status).toBe(200)
      expect(((await session.json()) as { user: { email: string } } | null)?.user.email).toBe(email)
      const credential = await signIn(server, email)
      statuses.push(credential.status)
      // docs/rate-limits.md: a credential route whose counter cannot be read is refused, not let through unlimited.
      expect(credential.status).toBe(503)
      expect(Number(credential.headers.get('retry-after'))).toBeGreaterThan(0)
      const ok = await server.call('/api/auth/ok')
      statuses.push(ok.status)
      expect(ok.status).toBe(200)
    }
    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([])

    await redis.start()
    // ioredis reconnects by itself; no restart of the servers.
    expect(await until(async () => (await signIn(a, email)).status === 200, 15)).toBe(true)
    expect((await signIn(b, email)).status).toBe(200)
    expect((await getSession(b, cookie)).status).toBe(200)
  })

  it.skipIf(!redisServer)('Redis unreachable while holding a copy: revoke-session answers 503 and changes nothing; once Redis is back and the revoking process restarted, the retried revocation holds on every process', async () => {
    redis = await privateRedis()
    // Through a proxy: `down()` makes Redis unreachable while it keeps its keys (a partition, not a restart).
    const { proxy: opened, url: viaProxy } = await proxied(redis.url, 6379)
    proxy = opened
    const env = { DATABASE_URL: db.url, REDIS_URL: viaProxy }
    servers = [await startProcess(env), await startProcess(env)]
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const email = `revoke-down-${Date.now()}@example.com`
    const stolen = await signUp(a, email)
    const own = cookiesOf(await signIn(a, email))
    const userOf = async (server: ServerProcess, cookie: string) =>
      ((await (await getSession(server, cookie)).json()) as { user: { email: string } } | null)?.user.email ?? null
    expect(await userOf(b, stolen.cookie)).toBe(email)
    const listed = (await (await a.call('/api/auth/list-sessions', { cookie: own })).json()) as Array<{ token: string; createdAt: string }>
    const handle = [...listed].sort((x, y) => x.createdAt.localeCompare(y.createdAt))[0]?.token

    await proxy.down()
    const during = await a.call('/api/auth/revoke-session', { json: { token: handle }, cookie: own, ip: nextIp() })
    // A restarts: nothing it remembered of the outage survives, and nothing needs to.
    await a.stop()
    await proxy.up()
    const restarted = await startProcess(env)
    servers = [restarted, b]
    // B is talking to Redis again once a credential route (counted there) answers.
    expect(await until(async () => (await signIn(b, email)).status === 200, 15)).toBe(true)

    // The answer and what B does agree: not revoked (503), so still accepted. A 200 here, with B
    // accepting the session from the copy Redis kept, is the fault this guards against.
    expect({ answered: during.status, acceptedByB: await userOf(b, stolen.cookie) }).toEqual({ answered: 503, acceptedByB: email })
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await userOf(restarted, stolen.cookie)).toBe(email)

    const retried = await restarted.call('/api/auth/revoke-session', { json: { token: handle }, cookie: own, ip: nextIp() })
    expect(retried.status).toBe(200)
    for (const server of servers) expect(await userOf(server, stolen.cookie)).toBeNull()
    const [row] = await db.query<{ n: string }>('select count(*) as n from "session" where token = $1', [handle])
    expect(Number(row?.n)).toBe(0)
  })

  it('PostgreSQL refused: 503 with Retry-After, never 500, and the pool recovers when it is back', async () => {
    const { proxy: opened, url: viaProxy } = await proxied(db.url, 5432)
    proxy = opened
    servers = [await startProcess({ DATABASE_URL: viaProxy }), await startProcess({ DATABASE_URL: viaProxy })]
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const email = `pg-down-${Date.now()}@example.com`
    const { cookie } = await signUp(a, email)

    await proxy.down()
    for (const server of servers) {
      for (const response of [await getSession(server, cookie), await signIn(server, email)]) {
        expect(response.status).toBe(503)
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
      }
    }

    await proxy.up()
    expect(await until(async () => (await getSession(a, cookie)).status === 200, 15)).toBe(true)
    expect(((await (await getSession(b, cookie)).json()) as { user: { email: string } }).user.email).toBe(email)
    expect((await signIn(b, email)).status).toBe(200)
  })

  /**
   * Twenty sign-ups on one server whose scrypt hashes queue on one thread, and `cut` over and over while they
   * run until all have answered: some are writing, some still hashing. Each answers 200 or 503; every stored user has its account.
   */
  async function signUpsUnderCuts(server: ServerProcess, label: string, cut: () => Promise<void>): Promise<void> {
    const stamp = Date.now()
    const emails = Array.from({ length: 20 }, (_, index) => `${label}-${stamp}-${index}@example.com`)
    let pending = emails.length
    const signUps = emails.map((email) =>
      server.call('/api/auth/sign-up/email', { json: { email, password: PASSWORD, name: 'Cut' }, ip: nextIp() }).finally(() => {
        pending -= 1
      }),
    )
    // Cut again and again while sign-ups are in flight: a cut that finds the pool idle costs nothing, so cutting
    // through the run makes sure some land inside a write. At most 40 cuts (600 ms): on a loaded machine a write
    // lasts longer than the 15 ms between cuts, and cutting on until every sign-up answered would never end.
    for (let cuts = 0; pending > 0 && cuts < 40; cuts += 1) {
      await new Promise((resolve) => setTimeout(resolve, 15))
      await cut()
    }
    const statuses = (await Promise.all(signUps)).map((response) => response.status)
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([])
    const rows = await db.query<{ email: string; accounts: string }>(
      `select u.email, (select count(*) from account c where c."userId" = u.id) as accounts from "user" u where u.email like $1`,
      [`${label}-${stamp}-%`],
    )
    // All or nothing: a user row always has its credential account.
    expect(rows.filter((row) => Number(row.accounts) !== 1)).toEqual([])
    const stored = new Set(rows.map((row) => row.email))
    for (const [index, email] of emails.entries()) if (statuses[index] === 200) expect(stored.has(email), email).toBe(true)
    // The fault did land on requests (else this would test nothing): those answered 503, not 500.
    expect(statuses).toContain(503)
  }

  it('PostgreSQL connections killed with pg_terminate_backend in the middle of sign-ups: 200 or 503, no partial rows, then it serves again', async () => {
    servers = [await startProcess({ DATABASE_URL: db.url, UV_THREADPOOL_SIZE: '1' })]
    const [a] = servers as [ServerProcess]
    const { cookie } = await signUp(a, `terminate-${Date.now()}@example.com`)
    // Only this test's database: the connections of its own server (and of the inspection pool, which reconnects).
    const terminate = async () => {
      await db.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
    }
    await signUpsUnderCuts(a, 'terminate', terminate)
    // The loop's last cuts may kill idle connections the pool has not yet noticed: each request that draws one
    // answers 503, as any transient fault does (docs/core.md#transient-faults), and the pool drops it. So at most
    // one 503 per pooled connection (pg's default pool holds 10), then it is served.
    const statuses: number[] = []
    while (statuses.length < 11 && statuses.at(-1) !== 200) statuses.push((await getSession(a, cookie)).status)
    expect(statuses.filter((status) => status !== 503 && status !== 200)).toEqual([])
    expect(statuses.at(-1)).toBe(200)
  }, 60_000)

  it('connections cut at the TCP level in the middle of sign-ups: each answers 200 or 503, and no user is left without its account', async () => {
    const { proxy: opened, url: viaProxy } = await proxied(db.url, 5432)
    proxy = opened
    servers = [await startProcess({ DATABASE_URL: viaProxy, UV_THREADPOOL_SIZE: '1' })]
    const [a] = servers as [ServerProcess]
    const cutting = proxy
    await signUpsUnderCuts(a, 'cut', async () => cutting.cut())

  })
})
