/**
 * @module
 * WORKERS=N (docs/deployment.md#several-processes): the primary process
 * migrates the database once, then forks N workers that serve one port
 * (node:cluster hands connections out round-robin). Workers migrate too when
 * they start, finding nothing to do; core serialises concurrent migrations
 * with a lock, so several machines starting together are safe as well.
 * SIGTERM to the primary is passed to every worker, each stops gracefully
 * (shutdown.ts), and the primary exits once they all have.
 */
import cluster, { type Worker } from 'node:cluster'
import { runMigrations } from '@gatehouse/core'
import { promoteAdmins } from './admins.js'
import { createExampleAuth } from './auth.js'
import type { ServerConfig } from './config.js'
import { openStores } from './database.js'
import { createMailer } from './mailer.js'

/** Extra time the primary gives workers past their own shutdown bound before it kills them. */
const PRIMARY_GRACE_MS = 5000

async function migrateOnce(config: ServerConfig): Promise<string> {
  const stores = await openStores(config)
  const auth = createExampleAuth(config, createMailer({ logFile: undefined, print: () => undefined }), undefined, stores)
  try {
    await runMigrations(auth)
    await promoteAdmins((await auth.$context).db, config.adminEmails)
    return stores.description
  } finally {
    await auth.close()
    await stores.close()
  }
}

/**
 * Runs in the primary process: migrate, fork, print "ready on" once every worker listens, relay signals.
 *
 * @example
 * if (cluster.isPrimary) await runPrimary(config, 4, 10_000)
 */
export async function runPrimary(config: ServerConfig, workers: number, shutdownTimeoutMs: number): Promise<void> {
  let listening = 0
  let stopping = false
  let failed = false
  let alive = 0
  let ready = false
  let forked = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: stopping ${alive} workers`)
    // Still migrating: the migration finishes (it holds a lock and a transaction), then the primary exits.
    if (!forked) return
    if (alive === 0) process.exit(0)
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL')
      process.exit(1)
    }, shutdownTimeoutMs + PRIMARY_GRACE_MS).unref()
  }
  // Before anything else, so that a signal during the migration is not Node's default (an immediate kill).
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  const description = await migrateOnce(config)
  if (stopping) process.exit(0)
  const fork = (): Worker => {
    const worker = cluster.fork()
    alive += 1
    worker.on('message', (message: { type?: string }) => {
      if (message.type !== 'gatehouse:listening') return
      listening += 1
      if (listening === workers && !ready) {
        ready = true
        console.log(`Gatehouse example server ready on ${config.baseURL} (${workers} workers, database ${description})`)
      }
    })
    return worker
  }
  cluster.on('exit', (worker, code, signal) => {
    alive -= 1
    if (stopping) {
      if (code !== 0) failed = true
      if (alive === 0) process.exit(failed ? 1 : 0)
      return
    }
    // Before every worker ever listened, a failure is a start-up failure (a port in use, a database that
    // refuses): restarting would loop forever, so the server stops as a single process would.
    if (!ready) {
      console.error(`worker ${worker.process.pid} exited (${signal ?? code}) while starting: stopping`)
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGKILL')
      process.exit(1)
    }
    // A worker that died on its own (a crash, the OOM killer) is replaced; the others keep serving meanwhile.
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`)
    listening -= 1
    setTimeout(fork, 1000).unref()
  })
  forked = true
  for (let index = 0; index < workers; index += 1) fork()
}
