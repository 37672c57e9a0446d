/**
 * Redis faults never answer 500 (docs/secondary-storage.md#when-redis-is-down,
 * docs/rate-limits.md#when-the-store-is-down). A private redis-server, started
 * by this file on a free port, is killed (SIGKILL), restarted and paused
 * (SIGSTOP): sessions are read from the database meanwhile, credential paths
 * fail closed with 503 and others stay open, a revocation that cannot delete
 * the copy in Redis answers 503 and changes nothing (so no other process is
 * left accepting a session reported revoked), and service returns by itself.
 */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdapterFactory } from '../src/db/adapter.js'
import { memoryAdapter } from '../src/db/memory/index.js'
import { redisStorage, type RedisStorage } from '../src/storage/redis.js'
import { cookieHeader } from './accounts.js'
import { faultAuth, password } from './fault-support.js'
import { privateRedis, until } from './private-servers.js'
import { BASE, request } from './helpers.js'

describe('Redis faults (private redis-server)', () => {
  let redis: Awaited<ReturnType<typeof privateRedis>>
  let storage: RedisStorage
  let admin: Redis
  const prefix = `gatehouse-fault:${randomUUID()}:`

  beforeAll(async () => {
    redis = await privateRedis()
    storage = redisStorage({ url: redis.url, keyPrefix: prefix, commandTimeout: 300 })
    admin = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null })
    admin.on('error', () => {})
  }, 30_000)
  afterAll(async () => {
    await storage.close()
    admin.disconnect()
    await redis.stop()
  })

  function makeAuth() {
    return faultAuth({ database: memoryAdapter(), secondaryStorage: storage })
  }

  const from = (ip: string, cookie?: string) => ({ origin: BASE, 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) })
  const getSession = (ip: string, cookie: string) => request('/api/auth/get-session', { headers: from(ip, cookie) })
  const sessionKeys = async () => (await admin.keys(`${prefix}session:*`)).length

  async function redisAnswers(): Promise<boolean> {
    try {
      await storage.get('probe')
      return true
    } catch {
      return false
    }
  }

  it('killed: sessions come from the database, sign-in fails closed with 503, others stay open; restarted: all back by itself', async () => {
    const { auth, logs } = makeAuth()
    const ip = '198.51.100.1'
    const signedUp = await auth.handler(request('/api/auth/sign-up/email', { json: { name: 'Ada', email: 'ada@example.com', password }, headers: from(ip) }))
    expect(signedUp.status).toBe(200)
    const cookie = cookieHeader(signedUp)
    expect(await sessionKeys()).toBe(1)

    await redis.kill()

    const during = await auth.handler(getSession(ip, cookie))
    expect(during.status).toBe(200)
    expect((await during.json()).user.email).toBe('ada@example.com')

    const refused = await auth.handler(
      request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password }, headers: from(ip) }),
    )
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('3')
    expect(await refused.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Service temporarily unavailable. Please try again shortly.',
    })
    const signUpRefused = await auth.handler(
      request('/api/auth/sign-up/email', { json: { name: 'Bo', email: 'bo@example.com', password }, headers: from(ip) }),
    )
    expect(signUpRefused.status).toBe(503)
    // Every other route keeps answering from the database.
    const listed = await auth.handler(request('/api/auth/list-sessions', { headers: from(ip, cookie) }))
    expect(listed.status).toBe(200)
    expect(await listed.json()).toHaveLength(1)
    const updated = await auth.handler(request('/api/auth/update-user', { json: { name: 'Ada L.' }, headers: from(ip, cookie) }))
    expect(updated.status).toBe(200)
    expect((await (await auth.handler(getSession(ip, cookie))).json()).user.name).toBe('Ada L.')

    expect(logs.lines.some((line) => line.startsWith('error'))).toBe(false)
    expect(logs.lines.some((line) => line.includes('rate limit store unavailable'))).toBe(true)
    expect(logs.lines.some((line) => line.includes('secondary storage unavailable'))).toBe(true)

    await redis.start()
    await until(redisAnswers)

    const signedIn = await auth.handler(request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password }, headers: from(ip) }))
    expect(signedIn.status).toBe(200)
    // The restarted Redis is empty; the session read mirrors it there again, and counters count again.
    expect((await auth.handler(getSession(ip, cookie))).status).toBe(200)
    expect(await sessionKeys()).toBeGreaterThanOrEqual(1)
    expect(await admin.get(`${prefix}rate-limit:${ip}|/sign-in/email`)).toBe('1')
    expect(await admin.pttl(`${prefix}rate-limit:${ip}|/sign-in/email`)).toBeGreaterThan(0)
  })

  it('paused: a sign-out answers 503, keeps the cookie and changes nothing; retried once Redis answers, no process accepts the session', async () => {
    // Two processes on one database and one Redis, each with its own memory of failed deletes.
    const shared = memoryAdapter()
    let adapter: ReturnType<AdapterFactory> | undefined
    const database: AdapterFactory = (options) => (adapter ??= shared(options))
    const { auth } = faultAuth({ database, secondaryStorage: storage })
    const { auth: other } = faultAuth({ database, secondaryStorage: storage })
    const ip = '198.51.100.2'
    const signedUp = await auth.handler(request('/api/auth/sign-up/email', { json: { name: 'Cy', email: 'cy@example.com', password }, headers: from(ip) }))
    const cookie = cookieHeader(signedUp)
    expect((await (await other.handler(getSession(ip, cookie))).json()).user.email).toBe('cy@example.com')
    const before = await sessionKeys()
    expect(before).toBeGreaterThanOrEqual(1)

    redis.pause()
    try {
      const signedOut = await auth.handler(request('/api/auth/sign-out', { method: 'POST', headers: from(ip, cookie) }))
      expect(signedOut.status).toBe(503)
      expect(signedOut.headers.get('retry-after')).toBe('3')
      // The cookie stays, so that the user can retry (docs/security.md#sign-out-during-a-storage-outage).
      expect(signedOut.headers.getSetCookie()).toEqual([])
    } finally {
      redis.resume()
    }
    await until(redisAnswers)
    // Not revoked anywhere, as the 503 said (the copy whose delete may have reached Redis is simply read again).
    expect(await (await auth.$context).adapter.count({ model: 'session' })).toBe(1)
    expect((await (await other.handler(getSession(ip, cookie))).json()).user.email).toBe('cy@example.com')

    const retried = await auth.handler(request('/api/auth/sign-out', { method: 'POST', headers: from(ip, cookie) }))
    expect(retried.status).toBe(200)
    expect(await sessionKeys()).toBe(before - 1)
    expect(await (await other.handler(getSession(ip, cookie))).json()).toBeNull()
  })

  it('while Redis hangs, requests still answer within the command timeout', async () => {
    const { auth } = makeAuth()
    const ip = '198.51.100.3'
    const signedUp = await auth.handler(request('/api/auth/sign-up/email', { json: { name: 'Di', email: 'di@example.com', password }, headers: from(ip) }))
    const cookie = cookieHeader(signedUp)
    redis.pause()
    try {
      const [session, signIn] = await Promise.all([
        auth.handler(getSession(ip, cookie)),
        auth.handler(request('/api/auth/sign-in/email', { json: { email: 'di@example.com', password }, headers: from(ip) })),
      ])
      expect(session.status).toBe(200)
      expect((await session.json()).user.email).toBe('di@example.com')
      expect(signIn.status).toBe(503)
    } finally {
      redis.resume()
    }
    await until(redisAnswers)
    expect((await auth.handler(getSession(ip, cookie))).status).toBe(200)
  })
})
