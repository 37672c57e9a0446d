/**
 * @module
 * The parts of the HTTP benchmark that every scenario shares: forking a
 * server child (`bench/server.mjs`), reading its CPU time over IPC, and
 * loading it with autocannon while recording each response's latency.
 *
 * Latencies come from autocannon's `response` event, which carries the
 * duration in fractional milliseconds; autocannon's own histogram rounds to
 * whole milliseconds, too coarse for a sub-millisecond get-session.
 */

import { fork } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'

const serverScript = fileURLToPath(new URL('./server.mjs', import.meta.url))

/** Value at percentile `p` (0–100) of an ascending array; nearest rank. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]
}

/**
 * Forks a server child and resolves once it listens. `kind` is `gatehouse`
 * or `bare`; `oidc` adds the OpenID Provider, `organization` the
 * organization plugin and `credentials` the API key plugin with bearer
 * session tokens on (server.mjs). With
 * BENCH_CPU_PROF=<dir> the child runs under `--cpu-prof` and writes its
 * profile there when closed.
 */
export async function startServer({ kind = 'gatehouse', cookieCache = false, oidc = false, organization = false, credentials = false, label = kind } = {}) {
  const execArgv = []
  const profileDir = process.env.BENCH_CPU_PROF
  if (profileDir) {
    mkdirSync(profileDir, { recursive: true })
    execArgv.push('--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${label}-${Date.now()}.cpuprofile`)
  }
  const child = fork(serverScript, [], {
    execArgv,
    env: { ...process.env, BENCH_SERVER_KIND: kind, BENCH_COOKIE_CACHE: cookieCache ? '1' : '0', BENCH_OIDC: oidc ? '1' : '0', BENCH_ORGANIZATION: organization ? '1' : '0', BENCH_CREDENTIALS: credentials ? '1' : '0' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })

  let nextId = 0
  const pending = new Map()
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const port = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${label} server exited with code ${code} before listening`)))
    child.on('message', (message) => {
      if (message.type === 'ready') resolve(message.port)
      if (message.type === 'stats') {
        pending.get(message.id)?.(message)
        pending.delete(message.id)
      }
    })
  })

  const ask = (type) =>
    new Promise((resolve) => {
      const id = nextId++
      pending.set(id, resolve)
      child.send({ type, id })
    })

  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    /** CPU µs and response count now. */
    stats: () => ask('stats'),
    /** The same, once the requests still in flight (cut off by the load generator's stop) are done. */
    drain: () => ask('drain'),
    async close() {
      child.send({ type: 'close' })
      await exited
    },
  }
}

/**
 * Loads `server` with autocannon for `seconds` after a `warmup` of its own,
 * and returns what the table prints. `requests` is autocannon's request
 * list (so a `setupRequest` can make every body unique); `connections`
 * defaults to 10.
 */
export async function load(server, { requests, seconds, warmup, connections = 10 }) {
  if (warmup > 0) await runAutocannon(server.url, { requests, seconds: warmup, connections })

  const before = await server.stats()
  const machineBefore = machineTimes()
  const selfBefore = process.cpuUsage()
  const run = await runAutocannon(server.url, { requests, seconds, connections })
  const selfCpu = process.cpuUsage(selfBefore)
  const machineAfter = machineTimes()
  const after = await server.drain()

  const cpuMicros = after.cpu.user - before.cpu.user + (after.cpu.system - before.cpu.system)
  // A server that does not count its responses (the example server, example-server.mjs): the ones the load generator saw.
  const served = after.completed === undefined ? run.responses : after.completed - before.completed
  const busyMs = machineAfter.busy - machineBefore.busy
  const totalMs = machineAfter.total - machineBefore.total
  // What neither the server nor the load generator used: other work on the machine, competing for the cores.
  const otherMs = busyMs - cpuMicros / 1000 - (selfCpu.user + selfCpu.system) / 1000
  const latencies = run.latencies.sort((a, b) => a - b)
  return {
    requests: run.responses,
    rate: run.responses / run.elapsedSeconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMsPerRequest: served > 0 ? cpuMicros / 1000 / served : Number.NaN,
    // Anything but a 2xx means the scenario measured an error path, not the route.
    failures: run.non2xx + run.errors + run.timeouts,
    statusCodes: run.statusCodes,
    otherCpuShare: totalMs > 0 ? Math.max(0, otherMs) / totalMs : Number.NaN,
  }
}

/** Busy and total CPU time of the whole machine so far, in ms summed over cores. */
export function machineTimes() {
  let busy = 0
  let total = 0
  for (const { times } of cpus()) {
    const used = times.user + times.nice + times.sys + times.irq
    busy += used
    total += used + times.idle
  }
  return { busy, total }
}

async function runAutocannon(url, { requests, seconds, connections }) {
  const latencies = []
  let responses = 0
  let non2xx = 0
  const statusCodes = {}
  let started = 0
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds, requests }, (error, value) =>
      error ? reject(error) : resolve(value),
    )
    instance.once('start', () => {
      started = performance.now()
    })
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      responses += 1
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime)
      else non2xx += 1
    })
  })
  return {
    latencies,
    responses,
    non2xx,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    elapsedSeconds: (performance.now() - started) / 1000,
  }
}
