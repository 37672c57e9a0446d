/**
 * What the fault suites break, all of it their own: a fresh PostgreSQL schema
 * or MariaDB database, a TCP proxy in front of PostgreSQL that can drop and
 * refuse connections like a restarting server, and a private redis-server on
 * a free port that can be killed, restarted and paused. The machine's shared
 * servers are never stopped or reconfigured; only connections a test opened
 * itself are terminated.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net'
import { Redis } from 'ioredis'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { expect } from 'vitest'
import { createAuth } from '../src/auth/create-auth.js'
import type { Adapter, AdapterFactory, Row } from '../src/db/adapter.js'
import { runMigrations } from '../src/migrations/run-migrations.js'
import type { GatehouseOptions } from '../src/options.js'
import { memoryStorage } from '../src/storage/memory-storage.js'
import { captureLogs } from './capture-logs.js'
import { BASE, SECRET, request } from './helpers.js'

export const password = 'correct horse battery staple'
export const signUp = (email: string) => request('/api/auth/sign-up/email', { json: { name: 'Ada', email, password } })
export const signIn = (email: string) => request('/api/auth/sign-in/email', { json: { email, password } })

/** An email-and-password auth on `database` whose every log line is captured. */
export function faultAuth(options: Partial<GatehouseOptions> & Pick<GatehouseOptions, 'database'>) {
  const logs = captureLogs()
  const auth = createAuth({ baseURL: BASE, secret: SECRET, logger: logs.logger, emailAndPassword: { enabled: true }, ...options })
  return { auth, logs }
}

/** The real adapter, with `fault` run inside a transaction right after its session insert has returned. */
export function afterSessionInsert(factory: AdapterFactory, fault: () => Promise<void>): AdapterFactory {
  return async (options) => {
    const adapter = await factory(options)
    const inTransaction = (tx: Adapter): Adapter => ({
      ...tx,
      create: async <T extends Row = Row>(args: { model: string; data: Row }) => {
        const row = await tx.create<T>(args)
        if (args.model === 'session') await fault()
        return row
      },
    })
    return { ...adapter, transaction: (fn) => adapter.transaction((tx) => fn(inTransaction(tx))) }
  }
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

export function suffix(): string {
  return randomBytes(6).toString('hex')
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** A schema of its own on the shared PostgreSQL; `sql` runs admin statements on a separate connection. */
export async function postgresSchema(url: string) {
  const schema = `gatehouse_fault_${suffix()}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema "${schema}"`)
  return {
    schema,
    sql: (text: string, values: unknown[] = []) => admin.query(text, values),
    async drop() {
      await admin.query(`drop schema if exists "${schema}" cascade`)
      await admin.end()
    },
  }
}

/** A database of its own on the shared MariaDB, and its URL. */
export async function mysqlDatabase(url: string) {
  const database = `gatehouse_fault_${suffix()}`
  const admin = await mysql.createConnection({ uri: url })
  await admin.query(`create database \`${database}\``)
  const isolated = new URL(url)
  isolated.pathname = `/${database}`
  return {
    database,
    url: isolated.toString(),
    sql: async (text: string, values: unknown[] = []) => (await admin.query(text, values))[0],
    async drop() {
      await admin.query(`drop database if exists \`${database}\``)
      await admin.end()
    },
  }
}

/**
 * A TCP proxy to `target`: `down()` cuts every open connection and stops
 * listening (new connections are refused, like a database that is
 * restarting), `up()` listens again on the same port, `stall()` holds back
 * the server's answers so a query can be cut while in flight.
 */
export async function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>()
  const upstreams = new Map<Socket, Socket>()
  let server: Server | undefined
  const port = await freePort()
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(target.port, target.host)
      sockets.add(client).add(upstream)
      upstreams.set(upstream, client)
      const end = () => {
        client.destroy()
        upstream.destroy()
        sockets.delete(client)
        sockets.delete(upstream)
        upstreams.delete(upstream)
      }
      client.on('error', end).on('close', end)
      upstream.on('error', end).on('close', end)
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve))
  }
  await listen()
  return {
    port,
    async down() {
      const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
      for (const socket of sockets) socket.destroy()
      sockets.clear()
      await closing
      server = undefined
    },
    up: listen,
    /** The server's answers stop reaching the clients: queries sent now stay in flight. */
    stall() {
      for (const [upstream, client] of upstreams) upstream.unpipe(client)
    },
    close() {
      return this.down()
    },
  }
}

/** A {@link tcpProxy} to the server of `url`, and `url` with its port pointed at the proxy. */
export async function proxied(url: string, defaultPort: number) {
  const target = new URL(url)
  const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || defaultPort) })
  const via = new URL(url)
  via.port = String(proxy.port)
  return { proxy, url: via.toString() }
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

/** A redis-server of this test's own, on a free port, without persistence. */
export async function privateRedis() {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    })
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null })
    probe.on('error', () => {})
    try {
      await probe.connect().catch(() => undefined)
      await probe.ping()
    } finally {
      probe.disconnect()
    }
  }
  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) resolve()
      else child.once('exit', () => resolve())
    })
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    /** SIGKILL: no goodbye to the clients, every key lost. */
    async kill() {
      const done = exited()
      child?.kill('SIGKILL')
      await done
    },
    /** SIGSTOP: the connections stay open but nothing answers (a hung or partitioned server); keys are kept. */
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    async stop() {
      child?.kill('SIGCONT')
      const done = exited()
      child?.kill('SIGKILL')
      await done
    },
  }
}

export async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('condition not met in time')
}
