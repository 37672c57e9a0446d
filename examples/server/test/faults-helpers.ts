/**
 * Faults the fault suites cause without touching the machine's shared
 * services: a private redis-server on a free port (no persistence) that a
 * test may SIGKILL and start again, and a TCP proxy in front of PostgreSQL
 * whose connections a test cuts and whose port it closes, as a database
 * restart would.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { Redis } from 'ioredis'
import { freePort } from './harness.js'

export interface PrivateRedis {
  readonly url: string
  /** SIGKILL: no goodbye to clients, as a crash or an OOM kill. */
  kill(): Promise<void>
  /** Starts again on the same port, empty. */
  start(): Promise<void>
}

export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
    // Ready when it answers PING.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
      probe.on('error', () => undefined)
      const pong = await probe
        .connect()
        .then(() => probe.ping())
        .catch(() => null)
      probe.disconnect()
      if (pong === 'PONG') return
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`private redis-server on port ${port} did not start`)
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async kill() {
      const exited = new Promise((resolve) => child?.once('exit', resolve))
      child?.kill('SIGKILL')
      await exited
    },
  }
}

export interface TcpProxy {
  readonly port: number
  /** Cuts every open connection and refuses new ones (the port is closed). */
  drop(): Promise<void>
  /** Cuts every open connection, as pg_terminate_backend would, and keeps accepting. */
  cut(): void
  /** Accepts connections again. */
  restore(): Promise<void>
  close(): Promise<void>
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort()
  const sockets = new Set<Socket>()
  let server: Server | undefined
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection(target)
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          socket.on('error', () => undefined)
        }
        client.pipe(upstream).pipe(client)
        client.on('close', () => upstream.destroy())
        upstream.on('close', () => client.destroy())
      })
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve())
    })
  const cut = () => {
    for (const socket of sockets) socket.destroy()
  }
  const stop = async () => {
    const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
    cut()
    await closing
    server = undefined
  }
  await listen()
  return { port, cut, drop: stop, restore: listen, close: stop }
}
