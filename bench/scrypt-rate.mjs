/**
 * @module
 * How many password hashes per second this machine sustains with libuv's
 * thread pool saturated: the ceiling for sign-ups and sign-ins, since each costs
 * one scrypt. Compare endpoint throughput against this number.
 *
 * Keeps K = 2 x UV_THREADPOOL_SIZE (libuv's default is 4) hashes in flight for
 * about 5 s, so every pool thread always has queued work, then prints the
 * rate. Prints numbers only; asserts nothing.
 *
 * Plain JavaScript over the built package, so it runs on Node 20 without a
 * TypeScript loader:
 *
 *     pnpm build && node bench/scrypt-rate.mjs
 *     UV_THREADPOOL_SIZE=2 BENCH_SECONDS=10 node bench/scrypt-rate.mjs
 */

import { availableParallelism } from 'node:os'
import { performance } from 'node:perf_hooks'
import { detectScryptBackend, hashPassword, verifyPassword } from '../packages/core/dist/index.js'

/** libuv reads UV_THREADPOOL_SIZE when the pool first starts; 4 when unset. */
const poolSize = Number(process.env.UV_THREADPOOL_SIZE ?? 4)
const concurrency = 2 * poolSize
const seconds = Number(process.env.BENCH_SECONDS ?? 5)

// Warm up: loads node:crypto, starts the pool, and checks the hash is usable.
const warm = await hashPassword('warm-up password')
if (!(await verifyPassword(warm, 'warm-up password'))) throw new Error('hash did not verify')

const latencies = []
let completed = 0
const started = performance.now()
const deadline = started + seconds * 1000

async function worker(id) {
  for (let n = 0; performance.now() < deadline; n++) {
    const begin = performance.now()
    await hashPassword(`bench password ${id}-${n}`)
    latencies.push(performance.now() - begin)
    completed += 1
  }
}

await Promise.all(Array.from({ length: concurrency }, (_, id) => worker(id)))
const elapsedMs = performance.now() - started

latencies.sort((a, b) => a - b)
const percentile = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0
const rate = completed / (elapsedMs / 1000)

const rows = [
  ['node', process.version],
  ['cores', availableParallelism()],
  ['backend', await detectScryptBackend()],
  ['params', 'scrypt N=16384 r=16 p=1 keyLength=64'],
  ['UV_THREADPOOL_SIZE', poolSize],
  ['concurrency', concurrency],
  ['seconds', (elapsedMs / 1000).toFixed(2)],
  ['hashes', completed],
  ['hashes/s', rate.toFixed(1)],
  ['ms per hash (1 / rate)', (1000 / rate).toFixed(1)],
  ['latency p50 ms', percentile(50).toFixed(1)],
  ['latency p95 ms', percentile(95).toFixed(1)],
  ['latency max ms', (latencies.at(-1) ?? 0).toFixed(1)],
]
for (const [name, value] of rows) console.log(`${`${name}:`.padEnd(26)}${value}`)
