/**
 * What the cross-process and fault suites share: a fresh database per run on
 * the machine's PostgreSQL or MariaDB (created through the admin URL, dropped
 * after), a Redis key prefix of its own, and several built servers
 * (`dist/main.js`) on one database, each on its own port, as separate
 * machines behind a load balancer would be.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { cookiesOf, freePort, runBuilt, sameOriginFetch, type BuiltRun } from './harness.js'
import type { Deployment } from './multi-process-cases.js'

export const services = {
  postgres: process.env.GATEHOUSE_TEST_POSTGRES_URL,
  mysql: process.env.GATEHOUSE_TEST_MYSQL_URL,
  redis: process.env.GATEHOUSE_TEST_REDIS_URL,
} as const

export const PASSWORD = 'correct horse battery'
export const WEBHOOK_SECRET = `whsec_${Buffer.from('multi-process-webhook-secret-32b').toString('base64')}`

export interface TestDatabase {
  readonly url: string
  /** Rows of a query on the test database (`$1` placeholders on PostgreSQL, `?` on MariaDB). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  drop(): Promise<void>
}

function databaseName(): string {
  return `gatehouse_mp_${randomBytes(5).toString('hex')}`
}

/** A new PostgreSQL database; `drop` ends this database's connections (only ours are on it) and removes it. */
export async function freshPostgres(adminUrl: string): Promise<TestDatabase> {
  const name = databaseName()
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 })
  // `drop` ends the database's connections: one of ours that is still closing reports it here, not as a crash.
  pool.on('error', () => undefined)
  admin.on('error', () => undefined)
  return {
    url: url.toString(),
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    async drop() {
      await pool.end()
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name])
      await admin.query(`drop database if exists ${name}`)
      await admin.end()
    },
  }
}

/** A new MariaDB/MySQL database, dropped by `drop`. */
export async function freshMysql(adminUrl: string): Promise<TestDatabase> {
  const name = databaseName()
  const admin = await mysql.createConnection({ uri: adminUrl })
  await admin.query(`create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const pool = mysql.createPool({ uri: url.toString(), connectionLimit: 2, timezone: 'Z' })
  return {
    url: url.toString(),
    query: async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params))[0] as T[],
    async drop() {
      await pool.end()
      await admin.query(`drop database if exists ${name}`)
      await admin.end()
    },
  }
}

/** A key prefix no other test uses, and a way to remove its keys afterwards. */
export function redisPrefix(url: string): { prefix: string; count(): Promise<number>; clear(): Promise<void> } {
  const prefix = `gatehouse-test:${randomBytes(6).toString('hex')}:`
  const keys = async () => {
    const client = new Redis(url)
    try {
      return { client, found: await client.keys(`${prefix}*`) }
    } catch (error) {
      client.disconnect()
      throw error
    }
  }
  return {
    prefix,
    async count() {
      const { client, found } = await keys()
      client.disconnect()
      return found.length
    },
    async clear() {
      const { client, found } = await keys()
      if (found.length > 0) await client.del(...found)
      client.disconnect()
    },
  }
}

/**
 * What a cross-process suite runs on: a temporary directory, a fresh
 * database of `kind`, a Redis prefix of its own, and the server env that
 * points at all three (mail and webhook logs in the directory). `close`
 * removes them; the suite stops its own processes first.
 */
export async function openBacking(kind: 'postgres' | 'mysql') {
  const dir = await mkdtemp(join(tmpdir(), `gatehouse-multi-${kind}-`))
  const db = kind === 'postgres' ? await freshPostgres(services.postgres ?? '') : await freshMysql(services.mysql ?? '')
  const redis = redisPrefix(services.redis ?? '')
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: services.redis ?? '',
    REDIS_KEY_PREFIX: redis.prefix,
    MAIL_LOG: join(dir, 'mail.jsonl'),
    WEBHOOK_LOG: join(dir, 'webhooks.jsonl'),
    BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET,
  }
  const dialect: Pick<Deployment, 'quote' | 'param'> =
    kind === 'postgres'
      ? { quote: (identifier) => `"${identifier}"`, param: (position) => `$${position}` }
      : { quote: (identifier) => `\`${identifier}\``, param: () => '?' }
  return {
    db,
    redis,
    env,
    /** The cases' view of `servers` running on this backing. */
    deployment: (servers: readonly ServerProcess[]): Deployment => ({ servers, db, mailLog: env.MAIL_LOG, webhookLog: env.WEBHOOK_LOG, ...dialect }),
    async close() {
      await redis.clear()
      await db.drop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

export type Backing = Awaited<ReturnType<typeof openBacking>>

export interface ServerProcess {
  readonly run: BuiltRun
  readonly url: string
  readonly port: number
  /** A request from the page's origin, no redirects followed; `json` makes it a JSON POST; `ip` is the client behind the proxy. */
  call(path: string, init?: RequestInit & { json?: unknown; cookie?: string; ip?: string }): Promise<Response>
  stop(): Promise<number | null>
}

/** Starts `dist/main.js` on a free port with `env` (one trusted proxy, so each request names its client with `ip`). */
export async function startProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const run = runBuilt({ PORT: String(port), BASE_URL: url, TRUST_PROXY: '1', AUTH_SECRET: 'multi-process-secret-0123456789abcdef', ...env })
  await run.ready
  return {
    run,
    url,
    port,
    call: (path, init = {}) => sameOriginFetch(url, path, init),
    async stop() {
      if (run.child.exitCode === null) run.child.kill('SIGTERM')
      return run.exited
    },
  }
}

let clients = 0
/** A client address of its own, so a request is counted against no one else's rate limit. */
export function nextIp(): string {
  clients += 1
  return `198.18.${Math.floor(clients / 250) % 250}.${(clients % 250) + 1}`
}

export interface MailLine {
  readonly type: string
  readonly to: string
  readonly url: string
  readonly token?: string
  readonly invitationId?: string
}

export async function mailsTo(path: string, to: string, type: string): Promise<MailLine[]> {
  const text = await readFile(path, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as MailLine)
    .filter((line) => line.to === to && line.type === type)
}

/** Signs up through `server`; answers the session cookie and the user's id. */
export async function signUp(server: ServerProcess, email: string, name = 'Test'): Promise<{ cookie: string; userId: string }> {
  const response = await server.call('/api/auth/sign-up/email', { json: { email, password: PASSWORD, name }, ip: nextIp() })
  if (response.status !== 200) throw new Error(`sign-up ${response.status}: ${await response.text()}`)
  const body = (await response.json()) as { user: { id: string } }
  return { cookie: cookiesOf(response), userId: body.user.id }
}

/** `count` requests, the i-th to `servers[i % servers.length]`, all in flight at once. */
export function spread<T>(servers: readonly ServerProcess[], count: number, send: (server: ServerProcess, index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => send(servers[index % servers.length] as ServerProcess, index)))
}

/** Opens a sign-up whose body is only half sent: the request is in flight until `finish()`; `answer` is the raw reply. */
export async function halfSentSignUp(port: number, email: string): Promise<{ socket: Socket; finish(): void; answer: Promise<string> }> {
  const body = JSON.stringify({ email, password: PASSWORD, name: 'Slow' })
  const socket = connect({ host: '127.0.0.1', port })
  // A connection the server cuts ends in a reset: that is the outcome some tests look for, not an error.
  socket.on('error', () => undefined)
  await new Promise<void>((resolve) => socket.once('connect', resolve))
  let answer = ''
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()))
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)))
  const origin = `http://127.0.0.1:${port}`
  socket.write(
    `POST /api/auth/sign-up/email HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nX-Forwarded-For: ${nextIp()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
  )
  return { socket, finish: () => socket.write(body.slice(10)), answer: ended }
}
