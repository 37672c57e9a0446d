/**
 * @module
 * What the Drizzle ORM layer costs (issue 27): get-session and list-sessions
 * (50 sessions) per second through core's Kysely adapter and through
 * `@gatehouse/drizzle`, on SQLite and, when a URL is set, PostgreSQL. Both
 * adapters serve the same tables (core's migration creates them; the Drizzle
 * module is generated for the same schema), in the same process, one after
 * the other, so the rows differ only by the adapter.
 *
 * Requests go through `auth.handler(new Request(…))` with 10 in flight (as
 * bench/http.mjs's 10 connections, without HTTP), cookie cache off, rate
 * limiting off. The two adapters take turns, route by route, for a few
 * rounds, and each cell is the median. Numbers, never assertions.
 *
 *   pnpm build   # core and drizzle dist
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/drizzle.mjs
 *
 * Run with tsx: the Drizzle schema module is generated as TypeScript.
 * BENCH_SECONDS (default 3) measured seconds per turn, BENCH_WARMUP (1)
 * unmeasured seconds before each, BENCH_ROUNDS (3) rounds; BENCH_POSTGRES_URL (or GATEHOUSE_TEST_POSTGRES_URL)
 * adds the PostgreSQL rows, in a fresh database dropped afterwards.
 */

import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { performance } from 'node:perf_hooks'

const root = fileURLToPath(new URL('..', import.meta.url))
const drizzleDir = join(root, 'packages/drizzle')
// The drivers and drizzle-orm as @gatehouse/drizzle resolves them, so the generated tables and the adapter share one drizzle-orm.
const fromDrizzle = createRequire(join(drizzleDir, 'package.json'))
const load = (specifier) => import(pathToFileURL(fromDrizzle.resolve(specifier)).href)

const { createAuth, runMigrations, coreSchema } = await import('../packages/core/dist/index.js')
const { sqliteAdapter } = await import('../packages/core/dist/adapters/sqlite.js')
const { postgresAdapter } = await import('../packages/core/dist/adapters/postgres.js')
const { drizzleAdapter } = await import('../packages/drizzle/dist/index.js')
const { drizzleSchema } = await import('../packages/core/src/cli/generate-drizzle.ts')

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1)
const IN_FLIGHT = 10
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? process.env.GATEHOUSE_TEST_POSTGRES_URL
const BASE = 'http://localhost:3000/api/auth'
const PASSWORD = 'correct horse battery'

// Sign-ups and sign-ins hash passwords: a trivial hasher keeps set-up short and the rows about reads.
const fastPasswords = { hash: async (password) => `plain:${password}`, verify: async ({ hash, password }) => hash === `plain:${password}` }

const work = join(drizzleDir, '.generated', `bench-${randomBytes(4).toString('hex')}`)
mkdirSync(work, { recursive: true })

/** The generated module for core's tables, imported (tsx compiles it). */
async function drizzleTables(dialect) {
  const file = join(work, `auth-schema-${dialect}.ts`)
  writeFileSync(file, drizzleSchema(coreSchema, dialect))
  return import(pathToFileURL(file).href)
}

function makeAuth(database) {
  return createAuth({
    baseURL: 'http://localhost:3000',
    secret: 'bench-secret-bench-secret-bench-secret-0123456789',
    database,
    emailAndPassword: { enabled: true, password: fastPasswords },
    rateLimit: { enabled: false },
    logger: { disabled: true },
  })
}

async function post(auth, path, body) {
  const response = await auth.handler(new Request(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' }, body: JSON.stringify(body) }))
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`)
  return response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
}

/** One user with 50 sessions; the cookie of the last. */
async function seed(auth) {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`
  let cookie = await post(auth, '/sign-up/email', { name: 'Bench', email, password: PASSWORD })
  for (let i = 1; i < 50; i++) cookie = await post(auth, '/sign-in/email', { email, password: PASSWORD })
  return cookie
}

/** Requests per second of GET `path`, IN_FLIGHT at a time; every answer is checked. */
async function rate(auth, path, cookie, check) {
  const request = () => auth.handler(new Request(`${BASE}${path}`, { headers: { cookie } }))
  const first = await (await request()).json()
  check(first)
  const loop = async (until) => {
    let done = 0
    const worker = async () => {
      while (performance.now() < until) {
        const response = await request()
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`)
        await response.arrayBuffer()
        done++
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
    return done
  }
  await loop(performance.now() + WARMUP * 1000)
  const start = performance.now()
  const done = await loop(start + SECONDS * 1000)
  return done / ((performance.now() - start) / 1000)
}

/** An auth on `database`, migrated, with one user of 50 sessions. */
async function prepare(label, database) {
  const auth = makeAuth(database)
  await runMigrations(auth)
  return { label, auth, cookie: await seed(auth) }
}

const ROUTES = [
  ['getSession', '/get-session', (label, body) => {
    if (!body?.session?.id) throw new Error(`${label}: get-session returned no session`)
  }],
  ['listSessions', '/list-sessions', (label, body) => {
    if (body.length !== 50) throw new Error(`${label}: list-sessions returned ${body.length} sessions`)
  }],
]

/**
 * Both adapters, route by route, alternating for BENCH_ROUNDS rounds; each
 * cell is the median of its rounds. Load from other processes that comes or
 * goes during the run then moves both columns alike.
 */
async function compare(kyselyDatabase, drizzleDatabase, labels) {
  const sides = [await prepare(labels[0], kyselyDatabase), await prepare(labels[1], drizzleDatabase)]
  const samples = sides.map(() => ({ getSession: [], listSessions: [] }))
  for (let round = 0; round < ROUNDS; round++) {
    for (const [key, path, check] of ROUTES) {
      for (const [index, side] of sides.entries()) {
        samples[index][key].push(await rate(side.auth, path, side.cookie, (body) => check(side.label, body)))
      }
    }
  }
  for (const side of sides) await side.auth.close()
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  return samples.map((sample) => ({ getSession: median(sample.getSession), listSessions: median(sample.listSessions) }))
}

/** The Drizzle adapter with core's migration as `migrate`, so both rows start from the same tables. */
function migratedBy(kysely, drizzle, close) {
  return async ({ schema }) => {
    const adapter = await drizzle({ schema })
    return {
      ...adapter,
      capabilities: { ...adapter.capabilities, migrations: true },
      migrate: async (options) => {
        const migrator = await kysely({ schema })
        try {
          return await migrator.migrate(options)
        } finally {
          await migrator.close?.()
        }
      },
      close,
    }
  }
}

async function sqliteRows() {
  const { default: Database } = await load('better-sqlite3')
  const { drizzle } = await load('drizzle-orm/better-sqlite3')
  const tables = await drizzleTables('sqlite')
  const kyselyFile = join(work, 'kysely.db')
  const drizzleFile = join(work, 'drizzle.db')
  const client = new Database(drizzleFile)
  client.pragma('journal_mode = WAL')
  client.pragma('foreign_keys = ON')
  const [kysely, viaDrizzle] = await compare(
    sqliteAdapter(kyselyFile),
    migratedBy(sqliteAdapter(drizzleFile), drizzleAdapter(drizzle(client), { provider: 'sqlite', schema: tables }), async () => void client.close()),
    ['kysely sqlite', 'drizzle sqlite'],
  )
  return { backend: 'SQLite (better-sqlite3)', kysely, drizzle: viaDrizzle }
}

async function postgresRows(url) {
  const { default: pg } = await load('pg')
  const { drizzle } = await load('drizzle-orm/node-postgres')
  const tables = await drizzleTables('postgres')
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  // A database per adapter, each migrated by core, dropped afterwards.
  const names = ['kysely', 'drizzle'].map((adapter) => `gatehouse_bench_${adapter}_${randomBytes(4).toString('hex')}`)
  const [kyselyUrl, drizzleUrl] = names.map((name) => Object.assign(new URL(url), { pathname: `/${name}` }).toString())
  try {
    for (const name of names) await admin.query(`create database ${name}`)
    const pool = new pg.Pool({ connectionString: drizzleUrl, max: 10 })
    const [kysely, viaDrizzle] = await compare(
      postgresAdapter(kyselyUrl),
      migratedBy(postgresAdapter(drizzleUrl), drizzleAdapter(drizzle(pool), { provider: 'pg', schema: tables }), () => pool.end()),
      ['kysely postgres', 'drizzle postgres'],
    )
    return { backend: 'PostgreSQL (pg)', kysely, drizzle: viaDrizzle }
  } finally {
    for (const name of names) await admin.query(`drop database if exists ${name}`)
    await admin.end()
  }
}

function table(rows) {
  const fixed = (n) => Math.round(n).toLocaleString('en-US')
  const lines = ['| backend | route | kysely req/s | drizzle req/s | drizzle / kysely |', '| --- | --- | ---: | ---: | ---: |']
  for (const { backend, kysely, drizzle } of rows) {
    for (const [route, key] of [['get-session', 'getSession'], ['list-sessions (50)', 'listSessions']]) {
      lines.push(`| ${backend} | ${route} | ${fixed(kysely[key])} | ${fixed(drizzle[key])} | ${Math.round((drizzle[key] / kysely[key]) * 100)} % |`)
    }
  }
  return lines.join('\n')
}

try {
  const rows = [await sqliteRows()]
  if (postgresUrl) rows.push(await postgresRows(postgresUrl))
  else console.log('PostgreSQL rows skipped: set BENCH_POSTGRES_URL.')
  console.log(`\nMedian of ${ROUNDS} alternating rounds of ${SECONDS} s (after ${WARMUP} s of warm-up each), ${IN_FLIGHT} requests in flight, node ${process.version}\n`)
  console.log(table(rows))
} finally {
  rmSync(work, { recursive: true, force: true })
}
