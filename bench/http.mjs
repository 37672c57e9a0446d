/**
 * @module
 * Issue 3's HTTP benchmark: Gatehouse on its SQLite default, served by
 * node:http on loopback and loaded by autocannon (10 connections), next to a
 * bare node:http server in the same run. Prints requests/s, p50/p99 latency,
 * server CPU ms per request and non-2xx counts for get-session (cookie cache
 * off and on; by cookie, bearer token and API key, issue 36), the OpenID Provider's code exchange and userinfo, list-sessions
 * over 50 sessions, the organization list of a member of 20, sign-in and sign-up; the
 * example server's cold start, idle and peak memory and its list endpoints
 * (issue 18: startup.mjs, example-load.mjs); the
 * machine's scrypt rate (bench/scrypt-rate.mjs, run in its own process with
 * the same thread pool); and the latency gap between unknown-email and
 * wrong-password sign-ins. Prints numbers, asserts nothing: see bench/README.md
 * for what they mean and the targets.
 *
 *     pnpm bench                                  # builds, then runs this
 *     BENCH_SECONDS=15 BENCH_ONLY=sign-in,sign-up node bench/http.mjs
 *     BENCH_CPU_PROF=/tmp/prof BENCH_ONLY=get-session-db node bench/http.mjs
 */

import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { processMemory } from './example-server.mjs'
import { measureExample } from './example-load.mjs'
import { load, machineTimes, startServer } from './harness.mjs'
import { printReport } from './report.mjs'
import { BENCH_BASE_URL, BENCH_OIDC_CLIENT } from './server.mjs'
import { measureStartup } from './startup.mjs'
import { measureTimingGap } from './timing-gap.mjs'

const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const warmup = Number(process.env.BENCH_WARMUP ?? 2)
const timingSamples = Number(process.env.BENCH_TIMING_SAMPLES ?? 200)
const startRuns = Number(process.env.BENCH_START_RUNS ?? 5)
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim())
const selected = (name) => !only || only.includes(name)

const API = '/api/auth'
const PASSWORD = 'correct horse battery staple'
// A browser sends Origin on every POST; Gatehouse refuses cookie-bearing POSTs without a trusted one (docs/security.md#trusted-origins-securityoriginsts).
const POST_HEADERS = { 'content-type': 'application/json', origin: BENCH_BASE_URL }
const runId = Date.now().toString(36)
let emailCounter = 0
const uniqueEmail = (tag) => `${tag}-${runId}-${emailCounter++}@bench.example`

const rows = []
let scryptBackend
const problems = []
const log = (line) => process.stderr.write(`${line}\n`)

/** POST a JSON body with fetch; returns the response with its JSON body and the cookies it set. */
async function post(server, path, body, cookie) {
  const response = await fetch(`${server.url}${API}${path}`, {
    method: 'POST',
    headers: cookie ? { ...POST_HEADERS, cookie } : POST_HEADERS,
    body: JSON.stringify(body),
  })
  const json = await response.json()
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(json)}`)
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0])
  return { json, cookie: cookies.join('; '), cookieNames: cookies.map((pair) => pair.split('=')[0]) }
}

async function getJson(server, path, cookie) {
  const response = await fetch(`${server.url}${API}${path}`, { headers: { cookie } })
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`)
  return response.json()
}

async function signUp(server) {
  const email = uniqueEmail('user')
  const result = await post(server, '/sign-up/email', { name: 'Bench User', email, password: PASSWORD })
  return { email, ...result }
}

/**
 * Runs one scenario in a fresh server child, closed afterwards whatever
 * happens. `reference` marks a row other rows are judged against.
 */
async function scenario(name, serverOptions, body, { select = name, reference } = {}) {
  if (!selected(select)) return
  log(`# ${name}`)
  let server
  try {
    server = await startServer({ label: select, ...serverOptions })
    const result = await body(server)
    if (result.failures > 0) problems.push(`${name}: ${result.failures} non-2xx or failed responses ${JSON.stringify(result.statusCodes)}`)
    rows.push({ name, reference, ...result })
  } catch (error) {
    // A broken route costs its row, not the run: the other numbers still print, with this one named below them.
    problems.push(`${name}: not measured: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await server?.close()
  }
}

const measure = (server, requests) => load(server, { requests, seconds, warmup })

async function assertSession(server, cookie, what) {
  const json = await getJson(server, '/get-session', cookie)
  // get-session answers 200 null for a bad cookie: a null here would mean benchmarking the anonymous path.
  if (!json?.session?.id) throw new Error(`${what}: get-session did not return a session`)
}

/**
 * bench/scrypt-rate.mjs in its own process, with this run's thread pool size
 * and duration; its printout parsed. `cpu-at-exit.mjs` adds its CPU time.
 */
async function scryptRate(name) {
  if (!['sign-in', 'sign-up', 'scrypt'].some(selected)) return
  log(`# ${name} (bench/scrypt-rate.mjs)`)
  const script = fileURLToPath(new URL('./scrypt-rate.mjs', import.meta.url))
  const preload = new URL('./cpu-at-exit.mjs', import.meta.url).href
  const machineBefore = machineTimes()
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', preload, script], {
    env: { ...process.env, BENCH_SECONDS: String(seconds) },
  })
  const machineAfter = machineTimes()
  const field = (label) => Number(stdout.match(new RegExp(`^${label}:\\s+(.+)$`, 'm'))?.[1])
  scryptBackend = stdout.match(/^backend:\s+(.+)$/m)?.[1]
  const cpuMs = field('cpu ms')
  // The warm-up hash counts too: the CPU total covers it.
  const hashes = field('hashes') + 1
  const totalMs = machineAfter.total - machineBefore.total
  rows.push({
    name,
    reference: 'scrypt',
    rate: field('hashes/s'),
    p50: field('latency p50 ms'),
    cpuMsPerRequest: cpuMs / hashes,
    otherCpuShare: Math.max(0, machineAfter.busy - machineBefore.busy - cpuMs) / totalMs,
  })
}

const loadBefore = loadavg()[0]
log(`node ${process.version}, ${cpus()[0]?.model}, ${availableParallelism()} cores, ${seconds} s per scenario`)

// First, before the load scenarios heat the machine: start-up is measured on a machine as quiet as this run gets.
let startup
if (selected('startup')) {
  log(`# start-up (${startRuns} rounds, load average ${loadavg()[0].toFixed(2)})`)
  try {
    startup = await measureStartup({ runs: startRuns, log })
  } catch (error) {
    problems.push(`startup: not measured: ${error instanceof Error ? error.message : String(error)}`)
  }
}

// The bare server runs before and after the session reads, and the scrypt rate before and after each
// password route: the reference is the mean of the two around a row, so load from elsewhere on the machine
// that comes or goes during the run shows up as a spread between them instead of skewing a share.
const bare = (name) =>
  scenario(
    name,
    { kind: 'bare' },
    async (server) => ({ ...(await measure(server, [{ method: 'GET', path: '/' }])), peakRss: processMemory(server.pid).peak }),
    { select: 'bare', reference: 'bare' },
  )

await bare('bare')
await scenario('web-floor', { kind: 'web' }, (server) => measure(server, [{ method: 'GET', path: '/' }]))

await scenario('get-session-db', { cookieCache: false }, async (server) => {
  const { cookie } = await signUp(server)
  await assertSession(server, cookie, 'get-session-db')
  const result = await measure(server, [{ method: 'GET', path: `${API}/get-session`, headers: { cookie } }])
  await assertSession(server, cookie, 'get-session-db (after)')
  return result
})

// Issue 36: the same read authenticated by the three credentials a script or an app sends: the cookie, a bearer
// session token, an API key (a key use is a write: its lastRequest and count).
await scenario('get-session-cookie-credentials', { credentials: true }, async (server) => {
  const { cookie } = await signUp(server)
  await assertSession(server, cookie, 'get-session-cookie-credentials')
  return measure(server, [{ method: 'GET', path: `${API}/get-session`, headers: { cookie } }])
})

await scenario('get-session-bearer', { credentials: true }, async (server) => {
  const email = uniqueEmail('bearer')
  const response = await fetch(`${server.url}${API}/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench User', email, password: PASSWORD }),
  })
  const token = response.headers.get('set-auth-token')
  if (!token) throw new Error('get-session-bearer: sign-up answered no set-auth-token')
  const headers = { authorization: `Bearer ${token}` }
  const check = await (await fetch(`${server.url}${API}/get-session`, { headers })).json()
  if (!check?.session?.id) throw new Error('get-session-bearer: the bearer token read no session')
  return measure(server, [{ method: 'GET', path: `${API}/get-session`, headers }])
})

await scenario('get-session-api-key', { credentials: true }, async (server) => {
  const { cookie } = await signUp(server)
  const { json } = await post(server, '/api-key/create', { name: 'bench' }, cookie)
  const headers = { 'x-api-key': json.key }
  const check = await (await fetch(`${server.url}${API}/get-session`, { headers })).json()
  if (!check?.session?.id) throw new Error('get-session-api-key: the key read no session')
  return measure(server, [{ method: 'GET', path: `${API}/get-session`, headers }])
})

await scenario('get-session-cache', { cookieCache: true }, async (server) => {
  const { cookie, cookieNames } = await signUp(server)
  if (!cookieNames.some((name) => name.endsWith('session_data'))) throw new Error('cookie cache on, but no session_data cookie was set')
  await assertSession(server, cookie, 'get-session-cache')
  return measure(server, [{ method: 'GET', path: `${API}/get-session`, headers: { cookie } }])
})

// The OpenID Provider (needs packages/oidc-provider/dist). Authorize answers a redirect, which the
// table would count as a failure, so the codes are made before the clock starts (one authorize each,
// over fetch) and the measured load is token requests alone, each redeeming a fresh code.
// 2,500 per second of load (warm-up included): the row redeems about 1,000 a second here, so it never runs out.
const OIDC_CODES = Number(process.env.BENCH_OIDC_CODES ?? 2500 * (seconds + warmup))
const OIDC_VERIFIER = 'bench-pkce-verifier-bench-pkce-verifier-0123456789'
const OIDC_CHALLENGE = createHash('sha256').update(OIDC_VERIFIER).digest('base64url')
const OIDC_BASIC = `Basic ${Buffer.from(`${encodeURIComponent(BENCH_OIDC_CLIENT.clientId)}:${encodeURIComponent(BENCH_OIDC_CLIENT.clientSecret)}`).toString('base64')}`
const OIDC_TOKEN_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', authorization: OIDC_BASIC }

/** `count` authorization codes for the bench client, `concurrency` authorize requests at a time. */
async function authorizationCodes(server, cookie, count, concurrency = 10) {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: BENCH_OIDC_CLIENT.clientId,
    redirect_uri: BENCH_OIDC_CLIENT.redirectURLs[0],
    scope: 'openid email profile',
    state: 'bench',
    code_challenge: OIDC_CHALLENGE,
    code_challenge_method: 'S256',
  })
  const codes = []
  const one = async () => {
    const response = await fetch(`${server.url}${API}/oauth2/authorize?${query}`, { headers: { cookie }, redirect: 'manual' })
    const code = new URL(response.headers.get('location') ?? '', BENCH_BASE_URL).searchParams.get('code')
    if (!code) throw new Error(`authorize answered ${response.status} ${response.headers.get('location')} without a code`)
    codes.push(code)
  }
  for (let made = 0; made < count; made += concurrency) await Promise.all(Array.from({ length: Math.min(concurrency, count - made) }, one))
  return codes
}

const tokenBody = (code) =>
  new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: BENCH_OIDC_CLIENT.redirectURLs[0], code_verifier: OIDC_VERIFIER }).toString()

await scenario('oidc-code-exchange', { cookieCache: false, oidc: true }, async (server) => {
  const { cookie } = await signUp(server)
  const codes = await authorizationCodes(server, cookie, OIDC_CODES)
  const check = await fetch(`${server.url}${API}/oauth2/token`, { method: 'POST', headers: OIDC_TOKEN_HEADERS, body: tokenBody(codes.pop()) })
  const tokens = await check.json()
  if (!tokens.id_token || !tokens.access_token) throw new Error(`token answered ${check.status}: ${JSON.stringify(tokens)}`)
  // Run out of codes and the rest answer invalid_grant, which the table counts as failures: raise BENCH_OIDC_CODES.
  return measure(server, [
    { method: 'POST', path: `${API}/oauth2/token`, headers: OIDC_TOKEN_HEADERS, setupRequest: (request) => ({ ...request, body: tokenBody(codes.pop() ?? 'spent') }) },
  ])
})

await scenario('oidc-userinfo', { cookieCache: false, oidc: true }, async (server) => {
  const { cookie } = await signUp(server)
  const [code] = await authorizationCodes(server, cookie, 1)
  const response = await fetch(`${server.url}${API}/oauth2/token`, { method: 'POST', headers: OIDC_TOKEN_HEADERS, body: tokenBody(code) })
  const { access_token: accessToken } = await response.json()
  if (!accessToken) throw new Error(`token answered ${response.status}`)
  const headers = { authorization: `Bearer ${accessToken}` }
  const info = await (await fetch(`${server.url}${API}/oauth2/userinfo`, { headers })).json()
  if (!info.sub || !info.email) throw new Error(`userinfo answered ${JSON.stringify(info)}`)
  return measure(server, [{ method: 'GET', path: `${API}/oauth2/userinfo`, headers }])
})

await scenario('list-sessions-50', { cookieCache: false }, async (server) => {
  const { email, cookie } = await signUp(server)
  // Sign-up made the first session; 49 sign-ins make the rest, a few at a time to keep the thread pool busy.
  for (let batch = 0; batch < 49; batch += 7) {
    await Promise.all(Array.from({ length: Math.min(7, 49 - batch) }, () => post(server, '/sign-in/email', { email, password: PASSWORD })))
  }
  const sessions = await getJson(server, '/list-sessions', cookie)
  if (sessions.length !== 50) throw new Error(`list-sessions returned ${sessions.length} sessions, expected 50`)
  return measure(server, [{ method: 'GET', path: `${API}/list-sessions`, headers: { cookie } }])
})

await scenario('organization-list-20', { cookieCache: false, organization: true }, async (server) => {
  const { email, cookie } = await signUp(server)
  for (let n = 0; n < 20; n++) await post(server, '/organization/create', { name: `Bench org ${n}`, slug: `bench-${n}-${email.split('@')[0]}`, keepCurrentActiveOrganization: true }, cookie)
  const organizations = await getJson(server, '/organization/list', cookie)
  if (organizations.length !== 20) throw new Error(`organization/list returned ${organizations.length}, expected 20`)
  return measure(server, [{ method: 'GET', path: `${API}/organization/list`, headers: { cookie } }])
})

// The example server as users run it (example-load.mjs): its list endpoints, then its peak memory under reads and hashing.
let exampleMemory
if (selected('example')) {
  try {
    const example = await measureExample({ measure, uniqueEmail, log })
    for (const row of example.rows) {
      if (row.failures > 0) problems.push(`${row.name}: ${row.failures} non-2xx or failed responses ${JSON.stringify(row.statusCodes)}`)
      rows.push(row)
    }
    exampleMemory = example.memory
  } catch (error) {
    problems.push(`example server: not measured: ${error instanceof Error ? error.message : String(error)}`)
  }
}

await bare('bare (again)')

await scryptRate('scrypt')

await scenario('sign-in', {}, async (server) => {
  const { email } = await signUp(server)
  const body = JSON.stringify({ email, password: PASSWORD })
  return measure(server, [{ method: 'POST', path: `${API}/sign-in/email`, headers: POST_HEADERS, body }])
})

await scryptRate('scrypt (again)')

await scenario('sign-up', {}, (server) =>
  measure(server, [
    {
      method: 'POST',
      path: `${API}/sign-up/email`,
      headers: POST_HEADERS,
      // A fresh address per request; a repeated one would measure the "User already exists" path.
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: 'Bench User', email: uniqueEmail('signup'), password: PASSWORD }) }),
    },
  ]),
)

await scryptRate('scrypt (third)')

let gap
if (selected('timing-gap')) {
  log(`# timing gap (${timingSamples} sign-ins of each kind, one at a time)`)
  let server
  try {
    server = await startServer({ label: 'timing-gap' })
    const { email } = await signUp(server)
    gap = await measureTimingGap({
      url: server.url,
      path: `${API}/sign-in/email`,
      headers: { origin: BENCH_BASE_URL },
      knownEmail: email,
      samples: timingSamples,
      warmup: 10,
    })
    if (Object.keys(gap.unexpected).length > 0) problems.push(`timing-gap: statuses other than 401: ${JSON.stringify(gap.unexpected)}`)
  } catch (error) {
    problems.push(`timing-gap: not measured: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await server?.close()
  }
}

printReport({ rows, scryptBackend, gap, problems, seconds, loadBefore, startup, exampleMemory })
