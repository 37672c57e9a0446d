/**
 * Servers and connections a test owns, so it can break them: a schema or
 * database of its own on the shared PostgreSQL or MariaDB, a TCP proxy that
 * drops and refuses connections like a restarting server, and a private
 * redis-server on a free port that can be killed, paused and restarted. The
 * machine's shared servers are never stopped or reconfigured.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net'
import { Redis } from 'ioredis'
import mysql from 'mysql2/promise'
import pg from 'pg'

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
 * restarting), `up()` listens again on the same port, `cut()` cuts the open
 * connections only, `stall()` holds back the server's answers so a query can
 * be cut while in flight.
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
    /** Cuts every open connection, as pg_terminate_backend would, and keeps accepting new ones. */
    cut() {
      for (const socket of sockets) socket.destroy()
    },
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

export type TcpProxy = Awaited<ReturnType<typeof tcpProxy>>
export type PrivateRedis = Awaited<ReturnType<typeof privateRedis>>
