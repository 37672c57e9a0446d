/**
 * POST /api/auth/usage/ingest on the example server, over HTTP, against the
 * billing platform's loopback mock: without POLAR_USAGE_EVENTS the route
 * does not exist; with it, only the listed events go through, with numbers
 * finite, not negative and within each event's `max` (docs/billing.md#security).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MOCK_TOKEN, startPlatformMock, type PlatformMock } from '../../../packages/billing/test/platform-mock.js'
import type { RunningServer } from '../src/server.js'
import { caller, cookiesOf, startExample } from './harness.js'

describe('usage ingestion on the example server', () => {
  let dir = ''
  let mock: PlatformMock
  const servers: RunningServer[] = []

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-usage-'))
    mock = await startPlatformMock()
  })
  afterAll(async () => {
    for (const server of servers) await server.close()
    await mock?.close()
    await rm(dir, { recursive: true, force: true })
  })

  async function start(name: string, env: Record<string, string>) {
    const server = await startExample(join(dir, name), { POLAR_ACCESS_TOKEN: MOCK_TOKEN, POLAR_SERVER_URL: mock.url, RATE_LIMIT: '0', ...env })
    servers.push(server)
    const call = caller(() => server)
    const signUp = await call('/api/auth/sign-up/email', { json: { name: 'Ada', email: `ada-${name}@example.com`, password: 'correct horse battery' } })
    expect(signUp.status).toBe(200)
    const cookie = cookiesOf(signUp)
    return async (json: unknown) => {
      const response = await call('/api/auth/usage/ingest', { json, cookie })
      return { status: response.status, body: await response.json() }
    }
  }

  it('without POLAR_USAGE_EVENTS the route does not exist: 404, nothing reaches the platform', async () => {
    const ingest = await start('off', {})
    const before = mock.ingestCalls.length
    expect(await ingest({ event: 'api_call', metadata: { tokens: -100_000_000 } })).toMatchObject({ status: 404 })
    expect(mock.ingestCalls.length).toBe(before)
  })

  it('with POLAR_USAGE_EVENTS, the listed events within their bounds reach the platform; nothing else does', async () => {
    const ingest = await start('on', { POLAR_USAGE_EVENTS: 'api_call:1000,export' })
    const before = mock.ingestCalls.length
    expect(await ingest({ event: 'made_up', metadata: { tokens: 1 } })).toMatchObject({ status: 400, body: { code: 'UNKNOWN_USAGE_EVENT' } })
    expect(await ingest({ event: 'api_call', metadata: { tokens: -5 } })).toMatchObject({ status: 400, body: { code: 'INVALID_USAGE_EVENT' } })
    expect(await ingest({ event: 'api_call', metadata: { tokens: 1001 } })).toMatchObject({ status: 400, body: { code: 'INVALID_USAGE_EVENT' } })
    expect(mock.ingestCalls.length).toBe(before)

    const accepted = await ingest({ event: 'api_call', metadata: { tokens: 1000 } })
    expect(accepted).toMatchObject({ status: 200, body: { ingested: true } })
    expect(await ingest({ event: 'export', metadata: { pages: 12, format: 'pdf' } })).toMatchObject({ status: 200 })
    const sent = mock.ingestCalls.slice(before).flat()
    expect(sent.map((event) => [event.name, event.metadata])).toEqual([
      ['api_call', { tokens: 1000 }],
      ['export', { pages: 12, format: 'pdf' }],
    ])
  })
})
