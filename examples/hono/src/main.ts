/**
 * @module
 * Two servers in one process: the API (api.ts) on PORT and the front end
 * (public/) on WEB_PORT, a different origin, as a separately deployed
 * front end would be. Migrations run at start-up.
 */
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { serveStatic } from '@hono/node-server/serve-static'
import { runMigrations } from '@gatehouse/core'
import { Hono } from 'hono'
import { api } from './api.js'
import { auth, baseURL, port, webOrigin, webPort } from './auth.js'

await runMigrations(auth)

const web = new Hono()
// The pages learn the API's origin here rather than from a build step.
web.get('/config.js', (c) => c.body(`export const API = ${JSON.stringify(baseURL)}\n`, 200, { 'content-type': 'text/javascript' }))
web.use('/*', serveStatic({ root: fileURLToPath(new URL('../public', import.meta.url)), rewriteRequestPath: (path) => (path.includes('.') || path === '/' ? path : `${path}.html`) }))

await Promise.all([
  new Promise<void>((resolve) => serve({ fetch: api.fetch, port, hostname: '127.0.0.1' }, () => resolve())),
  new Promise<void>((resolve) => serve({ fetch: web.fetch, port: webPort, hostname: '127.0.0.1' }, () => resolve())),
])
console.log(`Gatehouse on Hono ready on ${baseURL} (API), front end on ${webOrigin}`)
