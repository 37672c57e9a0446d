/**
 * @module
 * The example server: Gatehouse at `/api/auth`, the app's public settings
 * at `/api/app-config` (app-config.ts), the React app everywhere else, on
 * node:http with no framework. `startServer` opens the stores (SQLite by
 * default, database.ts), migrates, listens, and answers a handle that stops
 * at once (`close`) or gracefully (`shutdown`, what SIGTERM does: shutdown.ts).
 */
import { mkdir } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname } from 'node:path'
import { runMigrations } from '@gatehouse/core'
import { toNodeHandler } from '@gatehouse/core/node'
import { APP_CONFIG_PATH, appConfigHandler } from './app-config.js'
import { promoteAdmins } from './admins.js'
import { createExampleAuth, type ExampleAuth } from './auth.js'
import type { ServerConfig } from './config.js'
import { openStores } from './database.js'
import { jsonLines } from './json-lines.js'
import { createMailer } from './mailer.js'
import { gracefulClose, trackResponses } from './shutdown.js'
import { staticFiles } from './static-files.js'

export interface RunningServer {
  readonly url: string
  readonly port: number
  readonly auth: ExampleAuth
  /** The stores, for the start-up line: `postgres://db:5432/app + redis …`, no password. */
  readonly storesDescription: string
  /** Stops at once: open connections are cut. */
  close(): Promise<void>
  /**
   * SIGTERM's stop (shutdown.ts): refuses new connections, lets the requests in
   * flight finish for up to `timeoutMs`, then closes the stores. Resolves
   * whether the requests drained in time.
   */
  shutdown(timeoutMs: number): Promise<'drained' | 'forced'>
}

export interface StartOptions {
  /** The built React app. */
  readonly appDirectory: string
  readonly print?: (line: string) => void
  /** Host to bind; default 127.0.0.1. */
  readonly host?: string
}

/**
 * @example
 * const server = await startServer(readConfig(process.env), { appDirectory: '../react-app/dist' })
 * console.log(`Gatehouse example on ${server.url}`)
 */
export async function startServer(config: ServerConfig, options: StartOptions): Promise<RunningServer> {
  const print = options.print ?? ((line: string) => console.log(line))
  if (config.databaseUrl === undefined) await mkdir(dirname(config.databasePath), { recursive: true })
  const webhookLog = config.webhookLog === undefined ? undefined : jsonLines(config.webhookLog)
  const stores = await openStores(config)
  const auth = createExampleAuth(config, createMailer({ logFile: config.mailLog, smsLogFile: config.smsLog, print }), webhookLog, stores)
  if (config.billingWebhookSecret === undefined) print('Billing webhooks refuse every delivery until BILLING_WEBHOOK_SECRET is set.')
  await runMigrations(auth)
  // Users verified before their address was put in ADMIN_EMAILS (admins.ts).
  await promoteAdmins((await auth.$context).db, config.adminEmails)

  const api = toNodeHandler(auth)
  const app = staticFiles(options.appDirectory)
  const appConfig = await appConfigHandler(auth)
  const inFlight = trackResponses()
  const server: Server = createServer((req, res) => {
    inFlight.add(res)
    const path = req.url ?? '/'
    if (path.split('?')[0] === APP_CONFIG_PATH) return appConfig(req, res)
    void (path === '/api/auth' || path.startsWith('/api/auth/') || path.startsWith('/api/auth?') ? api(req, res) : app(req, res))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, options.host ?? '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: config.baseURL,
    port,
    auth,
    storesDescription: stores.description,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      await auth.close()
      await stores.close()
    },
    async shutdown(timeoutMs) {
      const outcome = await gracefulClose(server, inFlight, timeoutMs)
      await auth.close()
      await stores.close()
      return outcome
    },
  }
}
