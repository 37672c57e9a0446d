/**
 * @module
 * Prints what `bench/http.mjs` measured: the environment, one table row per
 * scenario with its share of the reference it is judged against (the bare
 * server for the GET routes, the scrypt rate for sign-in and sign-up), and
 * the sign-in timing gap; then the example server's start-up and memory
 * next to a bare node:http server's. Targets are issues 3's and 18's; a miss
 * is printed, never thrown: benchmarks do not fail builds.
 *
 * A reference is the mean of the reference rows measured just before and
 * just after the row, so that load elsewhere on the machine that starts or
 * stops during the run moves both sides of a share alike.
 */

import { availableParallelism, cpus, loadavg } from 'node:os'

/** Issue 3's targets: the reference a scenario is compared with, and the least share of it. */
const TARGETS = {
  'get-session-db': { reference: 'bare', share: 0.15 },
  'get-session-cache': { reference: 'bare', share: 0.3 },
  'sign-in': { reference: 'scrypt', share: 0.9 },
  'sign-up': { reference: 'scrypt', share: 0.9 },
}

/**
 * Issue 18's targets for the example server's list endpoints, as CPU ms per
 * request (independent of the load generator sharing the cores): half of
 * list-sessions' 0.41 ms and two thirds of the organization list's 0.29 ms.
 */
const CPU_TARGETS = {
  'example list-sessions-50': 0.2,
  'example organization-list-20': 0.19,
}

/** Issue 18's start-up and memory targets: ms from spawn to ready, MiB resident. */
const START_TARGET_MS = 300
const IDLE_RSS_TARGET = 60
const PEAK_RSS_TARGET = 200

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : '–')

function table(header, lines) {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => String(line[column]).length)))
  const format = (cells) =>
    cells.map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join('  ')
  return [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...lines.map(format)].join('\n')
}

function environment({ seconds, scryptBackend, loadBefore, rows }) {
  // Other processes competing for the cores skew shares. The load average lags by a minute, so the
  // verdict comes from the rows' own "other CPU" instead.
  const noisiest = Math.max(0, ...rows.map((row) => row.otherCpuShare).filter(Number.isFinite))
  const noise = noisiest > 0.1 ? `  (other processes used up to ${(noisiest * 100).toFixed(0)}% of the CPU during a row: noisy, re-run)` : ''
  return [
    ['node', process.version],
    ['cpu', cpus()[0]?.model ?? 'unknown'],
    ['cores', availableParallelism()],
    ['UV_THREADPOOL_SIZE', process.env.UV_THREADPOOL_SIZE ?? '4 (libuv default)'],
    ['scrypt', scryptBackend ? `${scryptBackend} backend, N=16384 r=16 p=1` : 'not measured'],
    ['seconds per scenario', seconds],
    ['connections', 10],
    ['load average (1 min)', `${loadBefore.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end${noise}`],
  ]
    .map(([name, value]) => `${`${name}:`.padEnd(22)}${value}`)
    .join('\n')
}

/** Mean rate of the nearest rows of kind `reference` before and after `index` (one side if only one exists). */
function referenceRate(rows, index, reference) {
  const before = rows.slice(0, index).findLast((row) => row.reference === reference)
  const after = rows.slice(index + 1).find((row) => row.reference === reference)
  const rates = [before, after].filter(Boolean).map((row) => row.rate)
  return rates.length > 0 ? rates.reduce((sum, rate) => sum + rate, 0) / rates.length : Number.NaN
}

function scenarioLine(rows, row, index) {
  const target = TARGETS[row.name]
  const cpuTarget = CPU_TARGETS[row.name]
  // Rows without a target (web-floor, list-sessions) are still shown as a share of bare, for scale.
  const comparedWith = target?.reference ?? row.compareWith ?? (row.reference ? undefined : 'bare')
  const share = comparedWith ? row.rate / referenceRate(rows, index, comparedWith) : Number.NaN
  const verdict = !target ? '' : Number.isFinite(share) ? (share >= target.share ? 'met' : 'MISSED') : 'no reference'
  return [
    row.name,
    fixed(row.rate, 1),
    // Rounded down, so that a printed 90.0% never stands next to MISSED.
    Number.isFinite(share) ? `${(Math.floor(share * 1000) / 10).toFixed(1)}% of ${comparedWith}` : '',
    target
      ? `≥${target.share * 100}% ${verdict}`
      : cpuTarget
        ? `CPU ≤${cpuTarget} ${Number.isFinite(row.cpuMsPerRequest) ? (row.cpuMsPerRequest <= cpuTarget ? 'met' : 'MISSED') : '–'}`
        : '',
    fixed(row.p50, 2),
    fixed(row.p99, 2),
    fixed(row.cpuMsPerRequest, 3),
    row.failures ?? '–',
    Number.isFinite(row.otherCpuShare) ? `${(row.otherCpuShare * 100).toFixed(0)}%` : '–',
  ]
}

function printGap(gap) {
  console.log('')
  console.log('failed sign-ins, one request at a time (ms):')
  const kind = (name, stats) => [name, stats.n, fixed(stats.mean, 3), fixed(stats.p50, 3), fixed(stats.p99, 3)]
  console.log(table(['kind', 'n', 'mean', 'p50', 'p99'], [kind('unknown email', gap.unknown), kind('wrong password', gap.wrong)]))
  const { difference, low, high } = gap.gap
  const verdict = low <= 0 && high >= 0 ? 'no measurable gap (the interval contains 0)' : 'MEASURABLE GAP (the interval excludes 0)'
  console.log(`wrong password − unknown email: ${fixed(difference, 3)} ms, 95% CI [${fixed(low, 3)}, ${fixed(high, 3)}] (Welch): ${verdict}`)
}

/** When startup.mjs reads the settled RSS (the column's heading). */
const settledMs = Number(process.env.BENCH_SETTLED_MS ?? 12_000)

const verdict = (value, limit) => (Number.isFinite(value) ? (value <= limit ? 'met' : 'MISSED') : '–')

/** Start-up (startup.mjs) and the example server's peak memory (example-load.mjs), each beside the bare server's. */
function printStartup(startup, exampleMemory, rows) {
  console.log('')
  console.log('start-up to a first 200 from GET /api/auth/ok (ms, spawn to response; CPU: the child\'s user + system by then):')
  if (startup) {
    const lines = startup.map((kind) => [
      kind.name,
      kind.runs,
      fixed(kind.minMs, 0),
      fixed(kind.medianMs, 0),
      fixed(kind.cpuMs, 0),
      kind.idleRss === undefined ? '' : fixed(kind.idleRss, 1),
      kind.settledRss === undefined ? '' : fixed(kind.settledRss, 1),
      kind.name === 'example, fresh database' ? `≤${START_TARGET_MS} ms ${verdict(kind.medianMs, START_TARGET_MS)}, idle ≤${IDLE_RSS_TARGET} MiB ${verdict(kind.idleRss, IDLE_RSS_TARGET)}` : '',
    ])
    console.log(table(['server', 'runs', 'min', 'median', 'CPU ms', 'idle RSS MiB (1 s)', `settled RSS MiB (${String(Math.round(settledMs / 1000))} s)`, 'target (median)'], lines))
  }
  if (exampleMemory) {
    const barePeak = Math.max(...rows.filter((row) => row.reference === 'bare' && Number.isFinite(row.peakRss)).map((row) => row.peakRss))
    console.log('')
    console.log('peak resident memory (VmHWM, MiB):')
    console.log(
      table(
        ['server', 'peak MiB', 'target'],
        [
          ['bare node:http under load', fixed(barePeak, 1), ''],
          ['example, read scenarios', fixed(exampleMemory.readsPeak, 1), `≤${PEAK_RSS_TARGET} ${verdict(exampleMemory.readsPeak, PEAK_RSS_TARGET)}`],
          ['example, hashing scenarios', fixed(exampleMemory.hashingPeak, 1), `≤${PEAK_RSS_TARGET} ${verdict(exampleMemory.hashingPeak, PEAK_RSS_TARGET)}`],
        ],
      ),
    )
  }
}

export function printReport({ rows, scryptBackend, gap, problems, seconds, loadBefore, startup, exampleMemory }) {
  console.log(environment({ seconds, scryptBackend, loadBefore, rows }))
  console.log('')
  const lines = rows.map((row, index) => scenarioLine(rows, row, index))
  console.log(table(['scenario', 'req/s', 'share', 'target', 'p50 ms', 'p99 ms', 'CPU ms/req', 'non-2xx', 'other CPU'], lines))
  if (startup || exampleMemory) printStartup(startup, exampleMemory, rows)
  if (gap) printGap(gap)
  if (problems.length > 0) {
    console.log('')
    console.log('!!!!!!!! PROBLEMS: non-2xx responses mean a row measured an error path, not the route !!!!!!!!')
    for (const problem of problems) console.log(`!!! ${problem}`)
  }
}
