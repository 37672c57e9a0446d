/**
 * @module
 * Issue 18's load on the example server itself (`node
 * examples/server/dist/main.js`, every first-party plugin, SQLite): one
 * process serves, in order,
 *
 * - `example get-session`: one user's session cookie, the database path;
 * - `example list-sessions-50`: GET /list-sessions for a user with 50 sessions;
 * - `example organization-list-20`: GET /organization/list for a member of 20;
 *
 * with its peak resident memory over those three (the set-up's sign-ins,
 * which hash passwords, are left out), then
 * - `example sign-in` and `example sign-up`: one scrypt each per request,
 *   UV_THREADPOOL_SIZE of them at a time at most (libuv's pool);
 *
 * with its peak over those two. The peak is the kernel's high-water mark
 * (VmHWM, restarted between the phases through clear_refs), so nothing
 * between two samples can hide.
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startExample } from './example-server.mjs'

const API = '/api/auth'
const PASSWORD = 'correct horse battery staple'

export async function measureExample({ measure, uniqueEmail, log = () => {} }) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-example-'))
  const server = await startExample({ dir, databasePath: join(dir, 'data', 'auth.db') })
  // Same-origin as the server's BASE_URL default, as a browser on the app would send.
  const postHeaders = { 'content-type': 'application/json', origin: server.url }
  const post = async (path, body, cookie) => {
    const response = await fetch(`${server.url}${API}${path}`, {
      method: 'POST',
      headers: cookie ? { ...postHeaders, cookie } : postHeaders,
      body: JSON.stringify(body),
    })
    const json = await response.json()
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(json)}`)
    return { json, cookie: response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ') }
  }
  const get = async (path, cookie) => {
    const response = await fetch(`${server.url}${API}${path}`, { headers: { cookie } })
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`)
    return response.json()
  }

  const rows = []
  const memory = {}
  try {
    const email = uniqueEmail('example')
    const { cookie } = await post('/sign-up/email', { name: 'Bench User', email, password: PASSWORD })
    for (let batch = 0; batch < 49; batch += 7) {
      await Promise.all(Array.from({ length: Math.min(7, 49 - batch) }, () => post('/sign-in/email', { email, password: PASSWORD })))
    }
    for (let n = 0; n < 20; n++) {
      await post('/organization/create', { name: `Bench org ${n}`, slug: `bench-org-${n}-${email.split('@')[0]}`, keepCurrentActiveOrganization: true }, cookie)
    }
    const sessions = await get('/list-sessions', cookie)
    if (sessions.length !== 50) throw new Error(`list-sessions returned ${sessions.length} sessions, expected 50`)
    const organizations = await get('/organization/list', cookie)
    if (organizations.length !== 20) throw new Error(`organization/list returned ${organizations.length}, expected 20`)
    if (!(await get('/get-session', cookie))?.session?.id) throw new Error('get-session did not return a session')

    // The set-up's 49 sign-ins hashed passwords: the read scenarios' peak starts from here.
    server.resetPeak()
    const reads = [
      ['example get-session', '/get-session'],
      ['example list-sessions-50', '/list-sessions'],
      ['example organization-list-20', '/organization/list'],
    ]
    for (const [name, path] of reads) {
      log(`# ${name}`)
      rows.push({ name, ...(await measure(server, [{ method: 'GET', path: `${API}${path}`, headers: { cookie } }])) })
    }
    memory.readsPeak = server.memory().peak

    server.resetPeak()
    log('# example sign-in')
    rows.push({
      name: 'example sign-in',
      compareWith: 'scrypt',
      ...(await measure(server, [{ method: 'POST', path: `${API}/sign-in/email`, headers: postHeaders, body: JSON.stringify({ email, password: PASSWORD }) }])),
    })
    log('# example sign-up')
    rows.push({
      name: 'example sign-up',
      compareWith: 'scrypt',
      ...(await measure(server, [
        {
          method: 'POST',
          path: `${API}/sign-up/email`,
          headers: postHeaders,
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: 'Bench User', email: uniqueEmail('example-signup'), password: PASSWORD }) }),
        },
      ])),
    })
    memory.hashingPeak = server.memory().peak
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return { rows, memory }
}
