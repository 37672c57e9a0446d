/**
 * Several built servers on one PostgreSQL database and one Redis
 * (docs/deployment.md#several-processes): sessions and their revocation,
 * the cookie cache's bound, one sign-in budget, single-use tokens, processes
 * starting together on an empty database, and WORKERS=2 behind one port.
 * Skipped, with the reason printed, without GATEHOUSE_TEST_POSTGRES_URL and
 * GATEHOUSE_TEST_REDIS_URL.
 */
import { createServer, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cookiesOf, runBuilt } from './harness.js'
import {
  apiKeyRemainingOnce,
  invitationOnce,
  oidcCodeAndRefreshOnce,
  passwordResetOnce,
  revocationUnderPolls,
  sessionAcrossProcesses,
  uniqueEmail,
  verificationOnce,
  webhookOnce,
  type Deployment,
} from './multi-process-cases.js'
import { halfSentSignUp, nextIp, openBacking, PASSWORD, services, signUp, spread, startProcess, type Backing, type ServerProcess } from './multi-process-harness.js'

const enabled = Boolean(services.postgres && services.redis)
if (!enabled) console.log('skipped  multi-process suite: GATEHOUSE_TEST_POSTGRES_URL and GATEHOUSE_TEST_REDIS_URL must both be set')

describe.skipIf(!enabled)('several processes on PostgreSQL + Redis', () => {
  let backing: Backing | undefined
  let servers: ServerProcess[] = []
  let cached: ServerProcess
  let deployment: Deployment

  beforeAll(async () => {
    backing = await openBacking('postgres')
    const { env } = backing
    // The first migrates an empty database; the others start together and find nothing to do.
    const first = await startProcess(env)
    const [second, third] = await Promise.all([startProcess(env), startProcess({ ...env, COOKIE_CACHE: '1', COOKIE_CACHE_MAX_AGE: '2' })])
    servers = [first, second as ServerProcess]
    cached = third as ServerProcess
    deployment = backing.deployment(servers)
  }, 120_000)

  afterAll(async () => {
    const codes = await Promise.all([...servers, cached].filter(Boolean).map((server) => server.stop()))
    expect(codes.every((code) => code === 0)).toBe(true)
    await backing?.close()
  })

  it('keeps sessions in Redis under its prefix; a session from one process is valid on the others, and revoked on one it is refused by all at once', async () => {
    await sessionAcrossProcesses(deployment)
    expect(await backing?.redis.count()).toBeGreaterThan(0)
  })

  it('with the cookie cache, a revoked session is refused no later than the cache lifetime (COOKIE_CACHE_MAX_AGE=2)', async () => {
    const email = uniqueEmail('cache')
    const { cookie } = await signUp(cached, email)
    const signedIn = await cached.call('/api/auth/sign-in/email', { json: { email, password: PASSWORD }, ip: nextIp() })
    const cacheCookie = cookiesOf(signedIn)
    expect(cacheCookie).toContain('session_data')
    const [other] = servers as [ServerProcess]
    const revoked = await other.call('/api/auth/sign-out', { json: {}, cookie: cacheCookie })
    expect(revoked.status).toBe(200)
    const revokedAt = performance.now()
    // Processes without the cache refuse it at once.
    const direct = await other.call('/api/auth/get-session', { cookie: cacheCookie })
    expect(await direct.json()).toBeNull()
    // The caching process may still answer from the signed cookie, but not past its lifetime.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 2100 - (performance.now() - revokedAt))))
    const late = await cached.call('/api/auth/get-session', { cookie: cacheCookie })
    expect(late.status).toBe(200)
    expect(await late.json()).toBeNull()
    expect(cookie).not.toBe('')
  })

  it('counts one sign-in budget across processes: 3 per 10 s, whichever process answers', async () => {
    const email = uniqueEmail('limit')
    await signUp(servers[0] as ServerProcess, email)
    const ip = nextIp()
    const all = [...servers, cached]
    const answers = await spread(all, 12, (server) => server.call('/api/auth/sign-in/email', { json: { email, password: 'wrong password' }, ip }))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 401)).toHaveLength(3)
    expect(statuses.filter((status) => status === 429)).toHaveLength(9)
    const refused = answers.find((answer) => answer.status === 429)
    expect(Number(refused?.headers.get('x-retry-after'))).toBeGreaterThan(0)
    // Another client keeps its own budget.
    const other = await all[1]?.call('/api/auth/sign-in/email', { json: { email, password: PASSWORD }, ip: nextIp() })
    expect(other?.status).toBe(200)
  })

  it('a session revoked while every process polls it is refused by all once the revocation answered', () => revocationUnderPolls(deployment))
  it('verifies an email once for twenty concurrent redemptions', () => verificationOnce(deployment))
  it('resets a password once for twenty concurrent redemptions', () => passwordResetOnce(deployment))
  it('accepts an invitation once for twenty concurrent accepts', () => invitationOnce(deployment))
  it('applies a billing webhook id once for twenty concurrent deliveries', () => webhookOnce(deployment))
  it('redeems an OIDC authorization code and a refresh token once each for twenty concurrent requests', () => oidcCodeAndRefreshOnce(deployment))
  it('spends an API key with five uses left exactly five times for twenty concurrent requests', () => apiKeyRemainingOnce(deployment))
})

describe.skipIf(!enabled)('PostgreSQL deployments: starting together, counters in the database, WORKERS', () => {
  let backing: Backing
  const started: ServerProcess[] = []

  beforeAll(async () => {
    backing = await openBacking('postgres')
  })
  afterAll(async () => {
    for (const server of started) if (server.run.child.exitCode === null) server.run.child.kill('SIGKILL')
    await backing?.close()
  })

  it('three processes started at once on an empty database all come up and share one schema', async () => {
    const env = { DATABASE_URL: backing.db.url, REDIS_URL: services.redis ?? '', REDIS_KEY_PREFIX: backing.redis.prefix }
    const three = await Promise.all([startProcess(env), startProcess(env), startProcess(env)])
    started.push(...three)
    const { cookie } = await signUp(three[0], uniqueEmail('together'))
    for (const server of three) expect((await server.call('/api/auth/get-session', { cookie })).status).toBe(200)
    const [tables] = await backing.db.query<{ n: string }>("select count(*) as n from information_schema.tables where table_schema = 'public' and table_name = 'session'")
    expect(Number(tables?.n)).toBe(1)
    expect(await Promise.all(three.map((server) => server.stop()))).toEqual([0, 0, 0])
  })

  it('without REDIS_URL, two processes share one sign-in budget through the database', async () => {
    const env = { DATABASE_URL: backing.db.url }
    const two = [await startProcess(env), await startProcess(env)]
    started.push(...two)
    const email = uniqueEmail('db-limit')
    await signUp(two[0] as ServerProcess, email)
    const ip = nextIp()
    const answers = await spread(two, 10, (server) => server.call('/api/auth/sign-in/email', { json: { email, password: 'wrong password' }, ip }))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 401)).toHaveLength(3)
    expect(statuses.filter((status) => status === 429)).toHaveLength(7)
    const [rows] = await backing.db.query<{ n: string }>('select count(*) as n from "rateLimit" where key like $1', [`${ip}|%`])
    expect(Number(rows?.n)).toBe(1)
    expect(await Promise.all(two.map((server) => server.stop()))).toEqual([0, 0])
  })

  it('WORKERS=2 on a port that is taken stops with exit 1 instead of restarting workers forever', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as AddressInfo
    try {
      const run = runBuilt({ PORT: String(port), DATABASE_URL: backing.db.url, WORKERS: '2', AUTH_SECRET: 'multi-process-secret-0123456789abcdef' })
      expect(await run.exited).toBe(1)
      expect(run.output()).toContain('while starting: stopping')
      expect(run.output()).not.toContain('ready on')
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()))
    }
  })

  it('WORKERS=2 serves one port from two processes, replaces a worker that dies, and on SIGTERM lets a request in flight finish and exits 0', async () => {
    const server = await startProcess({ DATABASE_URL: backing.db.url, REDIS_URL: services.redis ?? '', REDIS_KEY_PREFIX: backing.redis.prefix, WORKERS: '2' })
    started.push(server)
    expect(server.run.output()).toMatch(/ready on .*\(2 workers, database postgres:\/\/[^ ]+ \+ redis/)
    const workerPids = () => [...server.run.output().matchAll(/worker (\d+) listening/g)].map((match) => Number(match[1]))
    expect(workerPids()).toHaveLength(2)
    const { cookie } = await signUp(server, uniqueEmail('cluster'))
    const answers = await Promise.all(Array.from({ length: 10 }, () => server.call('/api/auth/get-session', { cookie })))
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200))

    // A worker killed outright (a crash, the OOM killer): the other keeps serving and the primary starts a third.
    process.kill(workerPids()[0] ?? 0, 'SIGKILL')
    // Time for the client to see its pooled connections to that worker closed (a real client retries those).
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect((await server.call('/api/auth/get-session', { cookie })).status).toBe(200)
    const deadline = performance.now() + 15_000
    while (workerPids().length < 3 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(server.run.output()).toContain('starting another')
    expect(workerPids()).toHaveLength(3)

    const slow = await halfSentSignUp(server.port, uniqueEmail('cluster-slow'))
    const signalled = performance.now()
    server.run.child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 200))
    slow.finish()
    expect(await slow.answer).toMatch(/^HTTP\/1\.1 200 /)
    expect(await server.run.exited).toBe(0)
    expect(performance.now() - signalled).toBeLessThan(10_000)
    expect(server.run.output()).toContain('SIGTERM: stopping 2 workers')
  })
})
