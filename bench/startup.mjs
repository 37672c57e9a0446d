/**
 * @module
 * Issue 18's start-up numbers: how long `node examples/server/dist/main.js`
 * takes from spawn to its first `GET /api/auth/ok` answering 200, on a fresh
 * SQLite file (creates every table) and on one migrated by the run before
 * (finds nothing to do), and its resident memory once idle. Next to the same
 * for a bare node:http server (`bare-start.mjs`): what Node itself costs.
 *
 * Runs interleave (bare, fresh, migrated, bare, …) so that load arriving on
 * the machine mid-way touches every kind alike. Wall time is what the target
 * is about; the child's CPU time by ready does not depend on other work
 * on the machine, so it is printed beside it. Idle RSS is read
 * `BENCH_IDLE_MS` (1000) after ready, one request served, before V8's idle
 * memory reducer runs (about 8 s in, it would shrink the young generation and
 * flatter the number). The target is judged on that reading. On the first
 * round only, the same processes also give their RSS `BENCH_SETTLED_MS`
 * (12000) after ready, once that collection has run: what a server left idle
 * holds, printed beside it.
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startExample } from './example-server.mjs'

const BARE = fileURLToPath(new URL('./bare-start.mjs', import.meta.url))
const idleMs = Number(process.env.BENCH_IDLE_MS ?? 1000)
const settledMs = Number(process.env.BENCH_SETTLED_MS ?? 12_000)

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** Starts, optionally waits and reads RSS (1 s in, and settled), stops. */
async function once(options, { readIdle, readSettled = false }) {
  const server = await startExample(options)
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
  try {
    let idleRss
    let settledRss
    if (readIdle) {
      await sleep(idleMs)
      idleRss = server.memory().rss
    }
    if (readSettled) {
      await sleep(Math.max(0, settledMs - idleMs))
      settledRss = server.memory().rss
    }
    return { readyMs: server.readyMs, cpuMs: server.cpuMs, idleRss, settledRss }
  } finally {
    await server.close()
  }
}

function summary(name, samples) {
  const idle = samples.map((sample) => sample.idleRss).filter((value) => value !== undefined)
  const settled = samples.map((sample) => sample.settledRss).filter((value) => value !== undefined)
  return {
    name,
    runs: samples.length,
    minMs: Math.min(...samples.map((sample) => sample.readyMs)),
    medianMs: median(samples.map((sample) => sample.readyMs)),
    cpuMs: median(samples.map((sample) => sample.cpuMs)),
    idleRss: idle.length > 0 ? median(idle) : undefined,
    settledRss: settled.length > 0 ? median(settled) : undefined,
  }
}

/**
 * `runs` rounds of: bare, example on a fresh database, example on that
 * database again (migrated). Returns one summary per kind.
 */
export async function measureStartup({ runs = 5, log = () => {} } = {}) {
  // The parent's own first fetch loads undici: done here, not inside the first timed start.
  await fetch('http://127.0.0.1:9/').catch(() => undefined)
  const samples = { bare: [], fresh: [], migrated: [] }
  for (let run = 0; run < runs; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'))
    try {
      const databasePath = join(dir, 'data', 'auth.db')
      const readSettled = run === 0
      samples.bare.push(await once({ script: BARE, dir, databasePath }, { readIdle: true, readSettled }))
      samples.fresh.push(await once({ dir, databasePath }, { readIdle: true, readSettled }))
      samples.migrated.push(await once({ dir, databasePath }, { readIdle: false }))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    const last = (kind) => samples[kind].at(-1).readyMs.toFixed(0)
    log(`  start-up run ${run + 1}/${runs}: bare ${last('bare')} ms, fresh ${last('fresh')} ms, migrated ${last('migrated')} ms`)
  }
  return [
    summary('bare node:http', samples.bare),
    summary('example, fresh database', samples.fresh),
    summary('example, migrated database', samples.migrated),
  ]
}
