/**
 * @module
 * Does a failed sign-in take longer for a wrong password than for an
 * unknown email? If it does, an attacker can enumerate accounts by timing
 * alone (docs/sessions.md#signing-up-in-and-out: both answer 401 after the same work).
 *
 * One connection, one request at a time, so that neither kind queues behind
 * the other; each pair is sent in a random order, so that drift over the run
 * (a warming JIT, a growing WAL) lands on both kinds alike. The gap is the
 * difference of mean latencies with a Welch 95% confidence interval; when
 * the interval contains 0, the gap is not measurable at this sample size.
 */

import { randomInt } from 'node:crypto'
import { Agent, request } from 'node:http'
import { performance } from 'node:perf_hooks'
import { percentile } from './harness.mjs'

/** Sends POST `path` with a JSON body on `agent`; resolves with the status once the body is read. */
function post(agent, url, path, headers, body) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body)
    const req = request(
      new URL(path, url),
      { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        res.resume()
        res.once('end', () => resolve(res.statusCode))
        res.once('error', reject)
      },
    )
    req.once('error', reject)
    req.end(payload)
  })
}

/**
 * Alternates `samples` sign-ins with an unknown email and `samples` with a
 * known email and a wrong password against `url`, after `warmup` pairs that
 * are not recorded. Resolves with the latencies (ms) of each kind and any
 * status that was not the expected 401.
 */
export async function measureTimingGap({ url, path, headers, knownEmail, samples, warmup }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const unknown = []
  const wrong = []
  const unexpected = {}
  const kinds = [
    { list: unknown, body: (n) => ({ email: `nobody-${n}@bench.invalid`, password: 'correct horse battery staple' }) },
    { list: wrong, body: () => ({ email: knownEmail, password: 'not the right password' }) },
  ]
  try {
    for (let n = 0; n < warmup + samples; n++) {
      const first = randomInt(2)
      for (const kind of [kinds[first], kinds[1 - first]]) {
        const begin = performance.now()
        const status = await post(agent, url, path, headers, kind.body(n))
        const elapsed = performance.now() - begin
        if (status !== 401) unexpected[status] = (unexpected[status] ?? 0) + 1
        if (n >= warmup) kind.list.push(elapsed)
      }
    }
  } finally {
    agent.destroy()
  }
  return { unknown: summarize(unknown), wrong: summarize(wrong), gap: welch(wrong, unknown), unexpected }
}

function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

function variance(values) {
  const m = mean(values)
  return values.reduce((sum, value) => sum + (value - m) ** 2, 0) / (values.length - 1)
}

function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return { n: values.length, mean: mean(values), p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
}

/**
 * Welch's interval for mean(a) − mean(b): unequal variances, Welch–Satterthwaite
 * degrees of freedom, and the t quantile from the Cornish–Fisher expansion of
 * the normal one, close enough for a "rough" interval at a few hundred samples.
 */
export function welch(a, b) {
  const va = variance(a) / a.length
  const vb = variance(b) / b.length
  const se = Math.sqrt(va + vb)
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1))
  const z = 1.959964
  const t = z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
  const difference = mean(a) - mean(b)
  return { difference, low: difference - t * se, high: difference + t * se, df }
}
