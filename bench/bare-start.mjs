/**
 * @module
 * The start-up ceiling: `node:http` answering `GET /api/auth/ok` with
 * `{"ok":true}` on PORT, and nothing else loaded. Started by `startup.mjs`
 * exactly as the example server is, so its cold start and resident memory are
 * what any Node server on this machine pays before its own code runs.
 */

import { createServer } from 'node:http'

const body = '{"ok":true}'
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}).listen(Number(process.env.PORT), '127.0.0.1')
