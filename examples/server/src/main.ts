/**
 * @module
 * `pnpm --dir examples/server start`: reads the environment (config.ts),
 * starts the server and prints its URL. With WORKERS=N the primary process
 * migrates and forks N workers (cluster.ts). SIGTERM and SIGINT stop
 * gracefully: requests in flight finish, within SHUTDOWN_TIMEOUT (shutdown.ts).
 */
import cluster from 'node:cluster'
import { fileURLToPath } from 'node:url'
import { ConfigError, readConfig } from './config.js'
import { startServer, type RunningServer } from './server.js'

const appDirectory = fileURLToPath(new URL('../../react-app/dist', import.meta.url))

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000
/** What closing the database pool and Redis may take after the requests are done. */
const STORE_CLOSE_MS = 3000

async function main(): Promise<void> {
  const config = readConfig(process.env)
  const workers = config.workers ?? 1
  const shutdownTimeoutMs = config.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS
  if (config.secretIsDevelopmentDefault && cluster.isPrimary) {
    console.warn(
      [
        '',
        '  !!! WARNING: AUTH_SECRET is not set. Using the public development secret.',
        '  !!! Anyone can forge sessions on this server. Set AUTH_SECRET (32+ characters) before exposing it.',
        '',
      ].join('\n'),
    )
  }
  if (workers > 1 && cluster.isPrimary) {
    // Imported only here: a single process never loads the cluster code.
    const { runPrimary } = await import('./cluster.js')
    return runPrimary(config, workers, shutdownTimeoutMs)
  }
  // Listening before the server starts: a SIGTERM that lands between the "ready" line and a later
  // registration would take Node's default action and kill the process mid-request.
  let server: RunningServer | undefined
  let stopping = false
  const shutdown = (running: RunningServer) => {
    // The bound holds even if closing a store hangs (a pool waiting for a connection that never comes back).
    setTimeout(() => {
      console.error('stores did not close in time: exiting')
      process.exit(1)
    }, shutdownTimeoutMs + STORE_CLOSE_MS).unref()
    running.shutdown(shutdownTimeoutMs).then(
      (outcome) => {
        if (outcome === 'forced') console.error('stopped with requests still in flight: their connections were cut')
        process.exit(outcome === 'drained' ? 0 : 1)
      },
      (error: unknown) => {
        console.error(error)
        process.exit(1)
      },
    )
  }
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: stopping (requests in flight get ${shutdownTimeoutMs / 1000} s)`)
    // Still starting: the server stops as soon as it is up (a migration is never cut in the middle).
    if (server) shutdown(server)
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)

  server = await startServer(config, { appDirectory })
  if (stopping) return shutdown(server)
  // A worker's "ready on" would tell a harness the server is ready before the other workers are: the primary prints it.
  if (cluster.isWorker) {
    console.log(`worker ${process.pid} listening`)
    // After the line, so that the primary's "ready on" comes after every worker's (stdout pipes write synchronously).
    process.send?.({ type: 'gatehouse:listening' })
  } else {
    console.log(`Gatehouse example server ready on ${server.url} (database ${server.storesDescription})`)
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error)
  process.exit(1)
})
