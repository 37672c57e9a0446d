/**
 * @module
 * What the client's types cost the type checker (issue 5): `tsc
 * --extendedDiagnostics` over two fixtures in bench/client-types/, the
 * baseline (the server with every first-party plugin, the client modules
 * imported, no client built) and the same plus a client typed from that
 * server (`createAuthClient<typeof auth>()` with `organizationClient()`)
 * calling every route and reading every hook. The difference is the
 * client's cost. Instantiations and types are exact and repeatable; times
 * are the fastest of BENCH_RUNS runs of each fixture (default 3, taken in
 * turns), the run least disturbed by other work on the machine, and still
 * move with its load. Prints numbers only; asserts nothing.
 *
 *     node bench/client-types.mjs
 *     BENCH_RUNS=5 node bench/client-types.mjs
 */

import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url))
const fixtures = fileURLToPath(new URL('./client-types/', import.meta.url))
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3))

const FIELDS = {
  files: 'Files',
  types: 'Types',
  instantiations: 'Instantiations',
  memory: 'Memory used',
  check: 'Check time',
  total: 'Total time',
}

/** One `tsc --extendedDiagnostics` run: the numbers it prints, or the type errors that stop it. */
async function diagnose(project) {
  const result = await run(process.execPath, [tsc, '-p', `${fixtures}tsconfig.${project}.json`, '--extendedDiagnostics'], {
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error) => {
    throw new Error(`tsc failed on the ${project} fixture:\n${error.stdout ?? ''}${error.stderr ?? ''}`)
  })
  const numbers = {}
  for (const [key, label] of Object.entries(FIELDS)) {
    const line = result.stdout.split('\n').find((text) => text.startsWith(`${label}:`))
    if (!line) throw new Error(`tsc printed no "${label}" for the ${project} fixture`)
    numbers[key] = Number.parseFloat(line.slice(label.length + 1).trim())
  }
  return numbers
}

/** The fastest times of a fixture's runs; the counts, which must not vary. */
function summarise(project, samples) {
  const [first] = samples
  for (const sample of samples) {
    if (sample.instantiations !== first.instantiations) throw new Error(`${project}: instantiations differ between runs`)
  }
  return { ...first, check: Math.min(...samples.map((sample) => sample.check)), total: Math.min(...samples.map((sample) => sample.total)) }
}

const samples = { baseline: [], client: [] }
for (let index = 0; index < runs; index += 1) {
  for (const project of Object.keys(samples)) samples[project].push(await diagnose(project))
}
const baseline = summarise('baseline', samples.baseline)
const client = summarise('client', samples.client)

const rows = [
  ['baseline (server + client modules)', baseline],
  ['with the client (every route, every hook)', client],
  [
    'the client alone (difference)',
    {
      files: client.files - baseline.files,
      types: client.types - baseline.types,
      instantiations: client.instantiations - baseline.instantiations,
      memory: client.memory - baseline.memory,
      check: client.check - baseline.check,
      total: client.total - baseline.total,
    },
  ],
]

const format = (value, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
console.log(`tsc --extendedDiagnostics, fastest of ${runs} run(s) for times (TypeScript ${(await import('typescript')).default.version})\n`)
console.log('| fixture | files | types | instantiations | memory (MB) | check (s) | total (s) |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const [name, numbers] of rows) {
  console.log(
    `| ${name} | ${format(numbers.files)} | ${format(numbers.types)} | ${format(numbers.instantiations)} | ${format(numbers.memory / 1024, 1)} | ${format(numbers.check, 2)} | ${format(numbers.total, 2)} |`,
  )
}
// Each route call in the fixture reads its answer in a `.then((r) => ...)`.
const fixture = readFileSync(`${fixtures}client.ts`, 'utf8')
const calls = fixture.match(/\.then\(\(r\) =>/g)?.length ?? 0
const hooks = fixture.match(/client\.use[A-Z]\w*\(/g)?.length ?? 0
console.log(`\n${format(Math.round((client.instantiations - baseline.instantiations) / calls))} instantiations per route call (${calls} calls, plus ${hooks} hooks).`)
