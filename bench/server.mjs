/**
 * @module
 * The server under load, run as a child of `bench/http.mjs` so that its CPU
 * time can be measured apart from the load generator's. Three kinds:
 *
 * - `gatehouse`: a fresh SQLite file in a temp dir (the embedded default),
 *   migrated, served by node:http through `toNodeHandler(auth)` (the direct path, no web Request/Response).
 *   Rate limiting is off, or the load would measure 429s.
 * - `bare`: node:http answering `{"ok":true}`: the ceiling any route on this
 *   machine can reach, so Gatehouse's rates read as a share of it.
 * - `web`: the same answer through `toNodeHandler` and a web-standard
 *   Request/Response pair: what the boundary alone costs, before any route.
 *
 * Talks to the parent over IPC only:
 *   -> { type: 'ready', port }                       once listening on 127.0.0.1
 *   <- { type: 'stats', id }  -> { type: 'stats', id, cpu, completed, inFlight }
 *   <- { type: 'drain', id }  -> the same, sent once no request is in flight
 *   <- { type: 'close' }      closes the database, removes the temp dir, exits
 *
 * `cpu` is `process.cpuUsage()`: user + system µs of the whole process, the
 * libuv thread pool included, so a scrypt hash counts toward the request
 * that asked for it. `completed` counts responses closed (finished or
 * aborted), so CPU per request divides by the work the server really did.
 *
 * Configured by environment: BENCH_SERVER_KIND (gatehouse | bare | web),
 * BENCH_COOKIE_CACHE (1 turns on the session cookie cache, maxAge 300 s) and
 * BENCH_OIDC (1 adds the OpenID Provider with one trusted confidential
 * client that skips consent, `BENCH_OIDC_CLIENT`) and BENCH_ORGANIZATION (1 adds
 * the organization plugin with its defaults) and BENCH_CREDENTIALS (1 adds the
 * API key plugin, its per-key rate limit off, and turns bearer session tokens on).
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const BENCH_BASE_URL = 'http://localhost:3000'
export const BENCH_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789'
/** The relying party of the OIDC scenarios: configured in code, so no registration or consent step is measured. */
export const BENCH_OIDC_CLIENT = {
  clientId: 'bench-rp',
  clientSecret: 'bench-rp-secret-bench-rp-secret-0123',
  name: 'Bench RP',
  type: 'web',
  redirectURLs: ['http://127.0.0.1:9/callback'],
  skipConsent: true,
}

const kind = process.env.BENCH_SERVER_KIND
const cookieCache = process.env.BENCH_COOKIE_CACHE === '1'
const oidc = process.env.BENCH_OIDC === '1'
const organization = process.env.BENCH_ORGANIZATION === '1'
const credentials = process.env.BENCH_CREDENTIALS === '1'

let completed = 0
let inFlight = 0
let cleanup = async () => {}

/** Counts every request from arrival until its response closes, whether finished or cut off by the client. */
function counted(handler) {
  return (req, res) => {
    inFlight += 1
    res.once('close', () => {
      inFlight -= 1
      completed += 1
    })
    handler(req, res)
  }
}

async function gatehouseHandler() {
  const { createAuth, runMigrations } = await import('../packages/core/dist/index.js')
  const { toNodeHandler } = await import('../packages/core/dist/node.js')
  const { sqliteAdapter } = await import('../packages/core/dist/adapters/sqlite.js')
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'))
  const plugins = []
  if (oidc) {
    const { oidcProvider } = await import('../packages/oidc-provider/dist/index.js')
    plugins.push(oidcProvider({ loginPage: `${BENCH_BASE_URL}/login`, trustedClients: [BENCH_OIDC_CLIENT] }))
  }
  if (organization) {
    const { organization: organizationPlugin } = await import('../packages/organization/dist/index.js')
    plugins.push(organizationPlugin())
  }
  if (credentials) {
    const { apiKey } = await import('../packages/api-key/dist/index.js')
    // Its own window off: the load would measure 429s, as core's limit would.
    plugins.push(apiKey({ rateLimit: { enabled: false } }))
  }
  const auth = createAuth({
    baseURL: BENCH_BASE_URL,
    secret: BENCH_SECRET,
    database: sqliteAdapter(join(dir, 'auth.db')),
    emailAndPassword: { enabled: true },
    session: { cookieCache: { enabled: cookieCache, maxAge: 300 } },
    rateLimit: { enabled: false },
    logger: { disabled: true },
    production: false,
    bearer: credentials,
    plugins,
  })
  await runMigrations(auth)
  cleanup = async () => {
    await auth.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return toNodeHandler(auth)
}

/** The web-standard boundary alone: node:http to a Request and a Response back, with no routing, database or crypto. */
async function webHandler() {
  const { toNodeHandler } = await import('../packages/core/dist/node.js')
  return toNodeHandler(async () => new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } }))
}

function bareHandler(_req, res) {
  const body = '{"ok":true}'
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

// Only when forked by harness.mjs; importing this file for its constants starts nothing.
if (kind && process.send) {
  const handler = kind === 'bare' ? bareHandler : kind === 'web' ? await webHandler() : await gatehouseHandler()
  const server = createServer(counted(handler))
  server.keepAliveTimeout = 60_000

  const stats = (id) => ({ type: 'stats', id, cpu: process.cpuUsage(), completed, inFlight })

  process.on('message', (message) => {
    if (message.type === 'stats') process.send(stats(message.id))
    if (message.type === 'drain') {
      const poll = () => (inFlight === 0 ? process.send(stats(message.id)) : setTimeout(poll, 5))
      poll()
    }
    if (message.type === 'close') shutdown()
  })
  // The parent died: do not linger holding a port and a temp dir.
  process.on('disconnect', shutdown)

  let closing = false
  function shutdown() {
    if (closing) return
    closing = true
    server.closeAllConnections()
    server.close()
    // A normal exit, so that `--cpu-prof` gets to write its profile.
    cleanup().finally(() => process.exit(0))
  }

  server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }))
}
