/**
 * @module
 * The example server as users start it: `node examples/server/dist/main.js`
 * in a child process, on a free port and its own SQLite file, with rate
 * limiting off (RATE_LIMIT=0, or the load would measure 429s) and mails
 * appended to a file instead of printed. Its CPU time and memory are read
 * from /proc (Linux), so nothing is preloaded into the process being
 * measured: the start-up timed is exactly the user's.
 *
 * `startExample` resolves once `GET /api/auth/ok` answers 200, with
 *   readyMs    spawn to that first 200, wall clock
 *   cpuMs      the child's user + system CPU by then (its threads included)
 * and a handle whose `stats()` fits `harness.mjs`'s `load()`.
 */

import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

export const EXAMPLE_MAIN = fileURLToPath(new URL('../examples/server/dist/main.js', import.meta.url))
export const EXAMPLE_SECRET = 'bench-example-secret-bench-example-secret-0123'

/** Clock ticks per second of /proc/<pid>/stat's times: 100 on every Linux that matters here (getconf CLK_TCK). */
const TICKS_PER_SECOND = 100

/** A port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** User and system CPU of a process so far, in µs, from /proc/<pid>/stat (fields 14 and 15, in clock ticks). */
export function processCpu(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const toMicros = (ticks) => (Number(ticks) * 1e6) / TICKS_PER_SECOND
  return { user: toMicros(fields[11]), system: toMicros(fields[12]) }
}

/** Resident memory now (VmRSS) and its peak so far (VmHWM), in MiB. */
export function processMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1])
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 }
}

/**
 * Starts the peak (VmHWM) over from the current RSS (proc(5), clear_refs "5"),
 * so that a scenario's peak is its own, not its set-up's.
 */
export function resetPeak(pid) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5')
}

/**
 * Starts `node <script>` (the example server by default) on `databasePath`
 * and waits for its first `GET /api/auth/ok`. `args` go before the script
 * (`--cpu-prof`, say); `env` is added to a minimal environment.
 */
export async function startExample({ databasePath, dir, args = [], env = {}, script = EXAMPLE_MAIN } = {}) {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, [...args, script], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      AUTH_SECRET: EXAMPLE_SECRET,
      DATABASE_PATH: databasePath,
      RATE_LIMIT: '0',
      MAIL_LOG: join(dir, 'mail.log'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const url = `http://127.0.0.1:${port}`

  // Polls until the port answers; a refused connection costs the child nothing.
  let ok = false
  while (!ok) {
    if (child.exitCode !== null) throw new Error(`example server exited with ${child.exitCode} before ready:\n${output}`)
    try {
      const response = await fetch(`${url}/api/auth/ok`)
      await response.arrayBuffer()
      ok = response.status === 200
    } catch {
      // Not listening yet.
    }
    if (!ok) await new Promise((resolve) => setTimeout(resolve, 2))
  }
  const readyMs = performance.now() - started
  const cpu = processCpu(child.pid)

  return {
    url,
    pid: child.pid,
    readyMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    memory: () => processMemory(child.pid),
    resetPeak: () => resetPeak(child.pid),
    /** For harness.mjs's load(): no server-side count, so load() divides by the responses it saw. */
    stats: async () => ({ cpu: processCpu(child.pid) }),
    drain: async () => {
      // The requests the load generator cut off at its stop finish within a few ms on loopback.
      await new Promise((resolve) => setTimeout(resolve, 50))
      return { cpu: processCpu(child.pid) }
    },
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
