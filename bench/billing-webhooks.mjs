/**
 * @module
 * The billing plugin's webhook throughput (issue 6): verified-and-applied
 * events per second over HTTP on loopback, with the SQLite default. A server
 * child (this file, forked with BENCH_BILLING_SERVER=1) runs Gatehouse with
 * `@gatehouse/billing` from the built dist packages on a fresh SQLite file,
 * served by node:http through `toNodeHandler(auth)`. The parent signs a pool
 * of deliveries in advance — realistic payloads of four kinds (a full
 * subscription.updated, order.paid, benefit_grant.created, customer.updated),
 * each with its own webhook-id and a later modified_at, so every one is
 * verified, parsed, logged and applied, none a duplicate — and loads the
 * server with autocannon (10 connections). Afterwards it asks the server how
 * many events the log holds as applied and checks the count against the 2xx
 * responses. Prints numbers, asserts nothing.
 *
 *     (cd packages/core && pnpm build) && (cd packages/billing && pnpm build)
 *     node bench/billing-webhooks.mjs
 *     BENCH_SECONDS=15 BENCH_SCHEME=secret-bytes node bench/billing-webhooks.mjs
 *
 * Settings: BENCH_SECONDS (8), BENCH_WARMUP (2), BENCH_CONNECTIONS (10),
 * BENCH_CPU_PROF (a directory: the server runs under `node --cpu-prof`),
 * BENCH_SCHEME (`standard` | `secret-bytes`: which key scheme signs; the
 * server tries the key that verified last first, so either costs one HMAC).
 */

import { fork } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { availableParallelism, cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { load } from './harness.mjs'

const SECRET = `whsec_${Buffer.from('bench-webhook-secret-32-bytes!!!').toString('base64')}`
const BASE_URL = 'http://localhost:3000'
const PATH = '/api/auth/polar/webhooks'

// ---------------------------------------------------------------- server child

async function serve() {
  const { createAuth, runMigrations } = await import('../packages/core/dist/index.js')
  const { toNodeHandler } = await import('../packages/core/dist/node.js')
  const { sqliteAdapter } = await import('../packages/core/dist/adapters/sqlite.js')
  const { billing } = await import('../packages/billing/dist/index.js')
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-billing-bench-'))
  const auth = createAuth({
    baseURL: BASE_URL,
    secret: 'bench-secret-bench-secret-bench-secret-0123456789',
    database: sqliteAdapter(join(dir, 'auth.db')),
    logger: { disabled: true },
    production: false,
    plugins: [billing({ webhooks: { secret: SECRET } })],
  })
  await runMigrations(auth)
  const handler = toNodeHandler(auth)

  let completed = 0
  let inFlight = 0
  const server = createServer((req, res) => {
    inFlight += 1
    res.once('close', () => {
      inFlight -= 1
      completed += 1
    })
    handler(req, res)
  })
  server.keepAliveTimeout = 60_000
  const stats = (id) => ({ type: 'stats', id, cpu: process.cpuUsage(), completed, inFlight })
  process.on('message', async (message) => {
    if (message.type === 'stats') process.send(stats(message.id))
    if (message.type === 'drain') {
      const poll = () => (inFlight === 0 ? process.send(stats(message.id)) : setTimeout(poll, 5))
      poll()
    }
    if (message.type === 'count') {
      const { db } = await auth.$context
      const [applied, all] = await Promise.all([
        db.count({ model: 'billingEvent', where: { field: 'status', value: 'applied' } }),
        db.count({ model: 'billingEvent' }),
      ])
      process.send({ type: 'count', id: message.id, applied, all })
    }
    if (message.type === 'close') {
      server.closeAllConnections()
      server.close()
      await auth.close()
      rmSync(dir, { recursive: true, force: true })
      process.exit(0)
    }
  })
  process.on('disconnect', () => process.exit(0))
  server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }))
}

async function startBillingServer() {
  const profileDir = process.env.BENCH_CPU_PROF
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
    env: { ...process.env, BENCH_BILLING_SERVER: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  let next = 0
  const pending = new Map()
  const port = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with code ${code}`)))
    child.on('message', (message) => {
      if (message.type === 'ready') resolve(message.port)
      else {
        pending.get(message.id)?.(message)
        pending.delete(message.id)
      }
    })
  })
  const ask = (type) =>
    new Promise((resolve) => {
      const id = next++
      pending.set(id, resolve)
      child.send({ type, id })
    })
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ask('stats'),
    drain: () => ask('drain'),
    count: () => ask('count'),
    close: () => new Promise((resolve) => (child.once('exit', resolve), child.send({ type: 'close' }))),
  }
}

// ---------------------------------------------------------------- payloads

const SELLER = '3c1e7a55-7e4b-4d6f-9d0e-0d6a1b1e2f01'
const PRODUCT = 'b7c7f8a2-3a51-4c0e-8f7b-6d2a5c7e9a10'
const METER = 'f1d3b5a7-9c2e-4f6a-8b0d-1e3c5a7b9d14'
const iso = (ms) => new Date(ms).toISOString().replace('Z', '000Z')
const t0 = Date.UTC(2026, 0, 1, 9)

function customer(n, modified) {
  return {
    id: `cus-${n % 500}`,
    created_at: iso(t0),
    modified_at: modified,
    metadata: { source: 'bench' },
    external_id: `user-${n % 500}`,
    email: `payer${n % 500}@bench.example`,
    email_verified: true,
    type: 'individual',
    name: 'Bench Payer',
    billing_name: null,
    billing_address: { line1: null, line2: null, postal_code: '10115', city: 'Berlin', state: null, country: 'DE' },
    tax_id: null,
    locale: null,
    organization_id: SELLER,
    default_payment_method_id: null,
    deleted_at: null,
    avatar_url: null,
  }
}

const price = { created_at: iso(t0), modified_at: null, id: 'price-1', source: 'catalog', amount_type: 'fixed', price_currency: 'usd', tax_behavior: null, is_archived: false, product_id: PRODUCT, price_amount: 2000 }
const benefit = {
  id: 'benefit-1',
  created_at: iso(t0),
  modified_at: null,
  type: 'license_keys',
  description: 'License key',
  selectable: true,
  deletable: true,
  is_deleted: false,
  organization_id: SELLER,
  metadata: { tier: 'pro' },
  visibility: 'public',
  properties: { prefix: 'BENCH', expires: null, activations: { limit: 3, enable_customer_admin: true }, limit_usage: null },
  visibility_configurable: true,
}
const product = {
  id: PRODUCT,
  created_at: iso(t0),
  modified_at: null,
  trial_interval: null,
  trial_interval_count: null,
  name: 'Pro',
  description: 'Everything, monthly',
  visibility: 'public',
  recurring_interval: 'month',
  recurring_interval_count: 1,
  meter_interval: null,
  meter_interval_count: null,
  is_recurring: true,
  is_archived: false,
  organization_id: SELLER,
  metadata: {},
  prices: [price],
  benefits: [benefit],
  medias: [],
  attached_custom_fields: [],
}
const meterDefinition = {
  metadata: {},
  created_at: iso(t0),
  modified_at: null,
  id: METER,
  name: 'API requests',
  unit: 'scalar',
  custom_label: null,
  custom_multiplier: null,
  filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.request' }] },
  aggregation: { func: 'sum', property: 'units' },
  organization_id: SELLER,
  archived_at: null,
}

function subscriptionCore(n, modified) {
  return {
    metadata: {},
    created_at: iso(t0),
    modified_at: modified,
    id: `sub-${n % 500}`,
    amount: 2000,
    currency: 'usd',
    recurring_interval: 'month',
    recurring_interval_count: 1,
    status: 'active',
    current_period_start: iso(t0),
    current_period_end: iso(t0 + 31 * 86_400_000),
    current_meter_period_start: null,
    current_meter_period_end: null,
    trial_start: null,
    trial_end: null,
    cancel_at_period_end: false,
    canceled_at: null,
    started_at: iso(t0),
    ends_at: null,
    ended_at: null,
    pause_at_period_end: false,
    paused_at: null,
    resumes_at: null,
    customer_id: `cus-${n % 500}`,
    product_id: PRODUCT,
    discount_id: null,
    checkout_id: null,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
  }
}

/** Event `n`: one of four kinds, about one of 500 customers, newer than any earlier event about it. */
function event(n) {
  const modified = iso(t0 + n * 1000)
  const timestamp = iso(t0 + n * 1000 + 100)
  switch (n % 4) {
    case 0:
      return {
        type: 'subscription.updated',
        timestamp,
        data: {
          ...subscriptionCore(n, modified),
          customer: customer(n, modified),
          product,
          discount: null,
          prices: [price],
          meters: [{ created_at: iso(t0), modified_at: modified, id: `sm-${n % 500}`, consumed_units: n, credited_units: 1000, amount: 0, meter_id: METER, meter: meterDefinition }],
          pending_update: null,
        },
      }
    case 1:
      return {
        type: 'order.paid',
        timestamp,
        data: {
          id: `order-${n}`,
          created_at: modified,
          modified_at: modified,
          status: 'paid',
          paid: true,
          subtotal_amount: 2000,
          discount_amount: 0,
          net_amount: 2000,
          tax_amount: 380,
          total_amount: 2380,
          applied_balance_amount: 0,
          due_amount: 0,
          refunded_amount: 0,
          refunded_tax_amount: 0,
          currency: 'usd',
          billing_reason: 'subscription_cycle',
          billing_name: null,
          billing_address: null,
          invoice_number: `BENCH-${n}`,
          is_invoice_generated: false,
          receipt_number: null,
          customer_id: `cus-${n % 500}`,
          product_id: PRODUCT,
          discount_id: null,
          subscription_id: `sub-${n % 500}`,
          checkout_id: null,
          metadata: {},
          custom_field_data: {},
          platform_fee_amount: 0,
          platform_fee_currency: null,
          customer: customer(n, modified),
          product: { ...product, prices: undefined, benefits: undefined, medias: undefined, attached_custom_fields: undefined },
          discount: null,
          subscription: subscriptionCore(n, modified),
          items: [{ created_at: modified, modified_at: null, id: `item-${n}`, label: 'Pro', amount: 2000, tax_amount: 380, proration: false, product_price_id: 'price-1' }],
          description: 'Pro',
          refundable_amount: 2380,
          refundable_tax_amount: 380,
        },
      }
    case 2:
      return {
        type: 'benefit_grant.created',
        timestamp,
        data: {
          created_at: modified,
          modified_at: modified,
          id: `grant-${n % 500}`,
          granted_at: modified,
          is_granted: true,
          revoked_at: null,
          is_revoked: false,
          subscription_id: `sub-${n % 500}`,
          order_id: null,
          customer_id: `cus-${n % 500}`,
          member_id: null,
          benefit_id: 'benefit-1',
          error: null,
          customer: customer(n, modified),
          member: null,
          benefit,
          properties: { license_key_id: `lk-${n}`, display_key: '****-BEEF' },
          previous_properties: null,
        },
      }
    default:
      return { type: 'customer.updated', timestamp, data: customer(n, modified) }
  }
}

// ---------------------------------------------------------------- load

/** A signature as the platform makes it; node:crypto here, so the load generator spends little CPU. */
function signature(scheme, id, seconds, body) {
  const key = scheme === 'standard' ? Buffer.from(SECRET.slice('whsec_'.length), 'base64') : Buffer.from(SECRET, 'utf8')
  return `v1,${createHmac('sha256', key).update(`${id}.${seconds}.${body}`).digest('base64')}`
}

async function main() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 8)
  const warmup = Number(process.env.BENCH_WARMUP ?? 2)
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
  const scheme = process.env.BENCH_SCHEME ?? 'standard'
  // Enough deliveries for a generous rate over the whole run; each is used once.
  const poolSize = Number(process.env.BENCH_POOL ?? 6000 * (seconds + warmup))
  const signedAt = Math.floor(Date.now() / 1000)
  const runId = Date.now().toString(36)
  const pool = []
  let bytes = 0
  for (let n = 0; n < poolSize; n++) {
    const body = JSON.stringify(event(n))
    bytes += body.length
    const id = `msg_${runId}_${n}`
    pool.push({
      method: 'POST',
      path: PATH,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(signedAt),
        'webhook-signature': signature(scheme, id, signedAt, body),
        'user-agent': 'polar.sh webhooks',
      },
      body,
    })
  }
  process.stderr.write(`node ${process.version}, ${cpus()[0]?.model}, ${availableParallelism()} cores; ${poolSize} deliveries signed (${scheme} scheme), mean body ${Math.round(bytes / poolSize)} bytes\n`)

  let used = 0
  const requests = [
    {
      setupRequest: (request) => {
        const next = pool[used++]
        if (!next) throw new Error('delivery pool exhausted: raise BENCH_POOL')
        return { ...request, ...next }
      },
    },
  ]

  const server = await startBillingServer()
  try {
    const result = await load(server, { requests, seconds, warmup, connections })
    const { applied, all } = await server.count()
    const statuses = Object.entries(result.statusCodes)
      .map(([code, count]) => `${code}×${count}`)
      .join(' ')
    const lines = [
      '',
      `billing webhooks over HTTP (SQLite, ${connections} connections, ${seconds} s measured after ${warmup} s warm-up)`,
      `  verified-and-applied events/s  ${result.rate.toFixed(0)}   (target ≥ 1000: ${result.rate >= 1000 ? 'met' : 'MISSED'})`,
      `  latency p50 / p99 ms           ${result.p50.toFixed(2)} / ${result.p99.toFixed(2)}`,
      `  server CPU ms per event        ${result.cpuMsPerRequest.toFixed(3)}`,
      `  responses                      ${statuses}   (non-2xx: ${result.failures})`,
      `  event log after the run        ${applied} applied of ${all} logged (warm-up included; every 2xx must be one applied event)`,
      `  other CPU on the machine       ${(result.otherCpuShare * 100).toFixed(1)} %`,
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
    if (all !== applied) process.stdout.write(`  !! ${all - applied} logged events were not applied\n`)
  } finally {
    await server.close()
  }
}

// Last, so every constant above is initialised before either role runs.
if (process.env.BENCH_BILLING_SERVER === '1') await serve()
else await main()
