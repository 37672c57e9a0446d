/**
 * @module
 * Issue 16's deployment benchmark: the built example server
 * (examples/server/dist/main.js) as two processes (WORKERS=2, one port) on
 * PostgreSQL + Redis next to one process on SQLite, loaded over HTTP by
 * autocannon with get-session (cookie cache off) and sign-in. Prints req/s,
 * p50/p99 latency, CPU ms per request summed over every server process (the
 * cluster's primary and workers, from /proc) and non-2xx counts.
 *
 * `--soak <seconds>` instead runs the two-process deployment at a steady rate
 * (BENCH_SOAK_RATE get-sessions/s and BENCH_SOAK_SIGNIN_RATE sign-ins/s) and
 * reports resident memory of every process at the start, middle and end, and
 * every error. Numbers, never assertions (bench/README.md#deployment-issue-16).
 *
 *     pnpm --filter @gatehouse/example-server build
 *     node bench/deployment.mjs
 *     node bench/deployment.mjs --soak 600
 *
 * A fresh database is created on BENCH_POSTGRES_URL's server (default the
 * test suites' GATEHOUSE_TEST_POSTGRES_URL) and dropped at the end; Redis keys
 * live under a prefix of their own and are removed too.
 */

import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { processCpu, processMemory, startExample } from './example-server.mjs'
import { machineTimes, percentile } from './harness.mjs'

// The drivers are the example server's dependencies, not the workspace root's.
const require = createRequire(new URL('../examples/server/package.json', import.meta.url))
const pg = require('pg')
const { Redis } = require('ioredis')

const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const warmup = Number(process.env.BENCH_WARMUP ?? 2)
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? process.env.GATEHOUSE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.GATEHOUSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const soakIndex = process.argv.indexOf('--soak')
const soakSeconds = soakIndex === -1 ? 0 : Number(process.argv[soakIndex + 1] ?? 600)
const soakRate = Number(process.env.BENCH_SOAK_RATE ?? 300)
const soakSignInRate = Number(process.env.BENCH_SOAK_SIGNIN_RATE ?? 2)

const API = '/api/auth'
const PASSWORD = 'correct horse battery staple'
const log = (line) => process.stderr.write(`${line}\n`)
const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : '–')

/** The pid and every descendant's (a cluster's workers), from /proc/<pid>/task/<pid>/children. */
function processTree(pid) {
  let children = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number)
  } catch {
    return []
  }
  return [pid, ...children.flatMap(processTree)]
}

function treeCpuMicros(pid) {
  return processTree(pid).reduce((sum, each) => {
    const { user, system } = processCpu(each)
    return sum + user + system
  }, 0)
}

async function freshDatabase() {
  const name = `gatehouse_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = new URL(postgresUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name])
      await admin.query(`drop database if exists ${name}`)
      await admin.end()
    },
  }
}

async function dropPrefix(prefix) {
  const client = new Redis(redisUrl)
  const keys = await client.keys(`${prefix}*`)
  if (keys.length > 0) await client.del(...keys)
  client.disconnect()
}

/** Signs a user up over HTTP; answers the session cookie and the email. */
async function signUp(server) {
  const email = `bench-${randomBytes(6).toString('hex')}@bench.example`
  const response = await fetch(`${server.url}${API}/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ email, password: PASSWORD, name: 'Bench' }),
  })
  if (response.status !== 200) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`)
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  const session = await fetch(`${server.url}${API}/get-session`, { headers: { cookie } }).then((answer) => answer.json())
  // A null here would benchmark the anonymous path.
  if (session?.user?.email !== email) throw new Error('get-session does not return the signed-up user')
  return { email, cookie }
}

function autocannonRun(url, options) {
  const latencies = []
  let non2xx = 0
  let responses = 0
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, ...options }, (error, result) =>
      error ? reject(error) : resolve({ latencies, non2xx, responses, errors: result.errors, timeouts: result.timeouts }),
    )
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      responses += 1
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime)
      else non2xx += 1
    })
  })
}

async function measure(server, requests, connections = 10) {
  if (warmup > 0) await autocannonRun(server.url, { requests, duration: warmup, connections })
  const cpuBefore = treeCpuMicros(server.pid)
  const machineBefore = machineTimes()
  const started = performance.now()
  const run = await autocannonRun(server.url, { requests, duration: seconds, connections })
  const elapsed = (performance.now() - started) / 1000
  await new Promise((resolve) => setTimeout(resolve, 50))
  const cpuMicros = treeCpuMicros(server.pid) - cpuBefore
  const machineAfter = machineTimes()
  const latencies = run.latencies.sort((a, b) => a - b)
  return {
    rate: run.responses / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMsPerRequest: run.responses > 0 ? cpuMicros / 1000 / run.responses : Number.NaN,
    failures: run.non2xx + run.errors + run.timeouts,
    machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
  }
}

async function deployments(dir) {
  const db = await freshDatabase()
  const prefix = `gatehouse-bench:${randomBytes(4).toString('hex')}:`
  const shared = { DATABASE_URL: db.url, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix }
  return {
    sqlite: () => startExample({ dir, databasePath: join(dir, 'auth.db') }),
    cluster: () => startExample({ dir, databasePath: join(dir, 'unused.db'), env: { ...shared, WORKERS: '2' } }),
    async cleanUp() {
      await dropPrefix(prefix)
      await db.drop()
    },
  }
}

async function compare(dir) {
  const setups = await deployments(dir)
  const rows = []
  try {
    for (const [label, start] of [
      ['1 process, SQLite', setups.sqlite],
      ['2 processes, PostgreSQL + Redis', setups.cluster],
    ]) {
      const server = await start()
      try {
        const user = await signUp(server)
        log(`${label}: get-session`)
        rows.push({ label, route: 'get-session', ...(await measure(server, [{ method: 'GET', path: `${API}/get-session`, headers: { cookie: user.cookie } }])) })
        log(`${label}: sign-in`)
        const body = JSON.stringify({ email: user.email, password: PASSWORD })
        const headers = { 'content-type': 'application/json', origin: server.url }
        rows.push({ label, route: 'sign-in', ...(await measure(server, [{ method: 'POST', path: `${API}/sign-in/email`, headers, body }])) })
      } finally {
        await server.close()
      }
    }
  } finally {
    await setups.cleanUp()
  }
  console.log(`\nDeployment benchmark: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${process.version}, load ${loadavg().map((value) => value.toFixed(2)).join(' ')}`)
  console.log(`autocannon, 10 connections, ${seconds} s measured after ${warmup} s warm-up; CPU summed over every server process\n`)
  console.log('| deployment | route | req/s | p50 ms | p99 ms | CPU ms/req | non-2xx | machine busy |')
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const row of rows) {
    console.log(
      `| ${row.label} | ${row.route} | ${fixed(row.rate, 0)} | ${fixed(row.p50, 2)} | ${fixed(row.p99, 2)} | ${fixed(row.cpuMsPerRequest, 3)} | ${row.failures} | ${fixed(row.machineBusy * 100, 0)} % |`,
    )
  }
  if (rows.some((row) => row.failures > 0)) console.log('\n!!! Some rows had non-2xx answers or errors: they measured an error path.')
}

function memoryOf(pid) {
  return processTree(pid).map((each) => ({ pid: each, rss: processMemory(each).rss }))
}

async function soak(dir) {
  const setups = await deployments(dir)
  const server = await setups.cluster()
  const samples = []
  let result
  try {
    const user = await signUp(server)
    const sample = (label) => {
      const processes = memoryOf(server.pid)
      samples.push({ label, at: Date.now(), processes, total: processes.reduce((sum, each) => sum + each.rss, 0) })
      log(`${label}: ${processes.map((each) => `${each.pid} ${each.rss.toFixed(1)} MiB`).join(', ')}`)
    }
    // Past the first requests: JIT, pools and caches filled.
    await autocannonRun(server.url, { requests: [{ method: 'GET', path: `${API}/get-session`, headers: { cookie: user.cookie } }], duration: 10, connections: 10, overallRate: soakRate })
    sample('start')
    const middle = setTimeout(() => sample('middle'), (soakSeconds * 1000) / 2)
    const cpuBefore = treeCpuMicros(server.pid)
    const signInBody = JSON.stringify({ email: user.email, password: PASSWORD })
    const [sessions, signIns] = await Promise.all([
      autocannonRun(server.url, {
        requests: [{ method: 'GET', path: `${API}/get-session`, headers: { cookie: user.cookie } }],
        duration: soakSeconds,
        connections: 10,
        overallRate: soakRate,
      }),
      autocannonRun(server.url, {
        requests: [{ method: 'POST', path: `${API}/sign-in/email`, headers: { 'content-type': 'application/json', origin: server.url }, body: signInBody }],
        duration: soakSeconds,
        connections: 2,
        overallRate: soakSignInRate,
      }),
    ])
    clearTimeout(middle)
    sample('end')
    const cpuMs = (treeCpuMicros(server.pid) - cpuBefore) / 1000
    result = { sessions, signIns, cpuMs }
  } finally {
    await server.close()
    await setups.cleanUp()
  }
  const { sessions, signIns, cpuMs } = result
  const p99 = (run) => fixed(percentile(run.latencies.sort((a, b) => a - b), 99), 2)
  console.log(`\nSoak: ${soakSeconds} s, 2 processes on PostgreSQL + Redis, ${soakRate} get-session/s and ${soakSignInRate} sign-in/s`)
  console.log(`${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${process.version}, load at end ${loadavg().map((value) => value.toFixed(2)).join(' ')}\n`)
  console.log('| sample | ' + samples[0].processes.map((_, index) => (index === 0 ? 'primary MiB' : `worker ${index} MiB`)).join(' | ') + ' | total MiB |')
  console.log('| --- |' + samples[0].processes.map(() => ' ---: |').join('') + ' ---: |')
  for (const each of samples) console.log(`| ${each.label} | ${each.processes.map((entry) => entry.rss.toFixed(1)).join(' | ')} | ${each.total.toFixed(1)} |`)
  console.log(`\n| route | responses | non-2xx | errors | timeouts | p99 ms |`)
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
  for (const [route, run] of [
    ['get-session', sessions],
    ['sign-in', signIns],
  ]) {
    console.log(`| ${route} | ${run.responses} | ${run.non2xx} | ${run.errors} | ${run.timeouts} | ${p99(run)} |`)
  }
  console.log(`\nserver CPU: ${fixed(cpuMs / (sessions.responses + signIns.responses), 3)} ms per request over the soak`)
}

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-deployment-'))
try {
  if (soakSeconds > 0) await soak(dir)
  else await compare(dir)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
