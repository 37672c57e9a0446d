/**
 * TRUST_PROXY over real HTTP: with one reverse proxy in front, rate limits key
 * on the address that proxy appended to X-Forwarded-For, IPv6 clients per /64
 * whatever the spelling, and nothing (odd paths, parallel bursts, garbage
 * headers) gets a client round the sign-in limit. The test plays the proxy:
 * it connects from loopback and sends the header a proxy would.
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../src/server.js'
import { builtMain, freePort, runBuilt, startExample } from './harness.js'

// The example server keeps Gatehouse's default sign-in rule: 3 requests per 10 seconds per client.
const SIGN_IN_LIMIT = 3
const EMAIL = 'ada@example.com'

async function start(dir: string, env: Record<string, string>): Promise<RunningServer> {
  const server = await startExample(dir, env)
  const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.250' },
    body: JSON.stringify({ name: 'Ada', email: EMAIL, password: 'correct horse battery' }),
  })
  expect(signUp.status).toBe(200)
  return server
}

/** A wrong-password sign-in, as the proxy would forward it. */
function signIn(base: string, forwarded: string | undefined, path = '/api/auth/sign-in/email'): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(forwarded === undefined ? {} : { 'x-forwarded-for': forwarded }) },
    body: JSON.stringify({ email: EMAIL, password: 'wrong password!' }),
  })
}

/** Status plus what tells a password check (401) from a refusal before it (429) apart. */
async function outcome(response: Response): Promise<string> {
  const body = (await response.json()) as { message?: string }
  if (response.status === 401 && body.message === 'Invalid email or password') return '401'
  if (response.status === 429 && Number(response.headers.get('x-retry-after')) > 0) return '429'
  return `${response.status} ${JSON.stringify(body)}`
}

async function sequence(base: string, forwarded: readonly (string | undefined)[]): Promise<string[]> {
  const results: string[] = []
  for (const entry of forwarded) results.push(await outcome(await signIn(base, entry)))
  return results
}

const tried = (count: number) => Array.from({ length: count }, () => '401')

describe('TRUST_PROXY=1: one reverse proxy on loopback', () => {
  let dir = ''
  let server: RunningServer
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-proxy-'))
    server = await start(dir, { TRUST_PROXY: '1' })
  })
  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('gives two clients separate sign-in limits', async () => {
    expect(await sequence(server.url, Array(SIGN_IN_LIMIT + 1).fill('203.0.113.10'))).toEqual([...tried(SIGN_IN_LIMIT), '429'])
    expect(await sequence(server.url, ['203.0.113.11'])).toEqual(['401'])
  })

  it("takes the proxy's entry, the rightmost: what the client wrote before it changes nothing", async () => {
    const spoofed = Array.from({ length: SIGN_IN_LIMIT + 2 }, (_, index) => `10.9.9.${index}, 203.0.113.20`)
    expect(await sequence(server.url, spoofed)).toEqual([...tried(SIGN_IN_LIMIT), '429', '429'])
    expect(await sequence(server.url, ['203.0.113.20, 203.0.113.21'])).toEqual(['401'])
  })

  it('keys IPv6 clients per /64, whatever the spelling', async () => {
    const spellings = ['2001:db8:aa:1::1', '2001:DB8:AA:1:0:0:0:1', '2001:0db8:00aa:0001:0000:0000:0000:0001']
    expect(await sequence(server.url, spellings)).toEqual(tried(SIGN_IN_LIMIT))
    // The same address spelt again, another address in the same /64, the bracketed form a proxy may write.
    expect(await sequence(server.url, ['2001:0db8:aa:1::0001', '2001:db8:aa:1:ffff:ffff:ffff:fffe', '[2001:db8:aa:1::2]:443'])).toEqual([
      '429',
      '429',
      '429',
    ])
    // The neighbouring /64s are other clients.
    expect(await sequence(server.url, ['2001:db8:aa:2::1', '2001:db8:aa:0:ffff:ffff:ffff:ffff'])).toEqual(['401', '401'])
  })

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    const spellings = ['198.51.100.7', '::ffff:198.51.100.7', '::FFFF:C633:6407']
    expect(await sequence(server.url, spellings)).toEqual(tried(SIGN_IN_LIMIT))
    expect(await sequence(server.url, ['0:0:0:0:0:ffff:198.51.100.7', '198.51.100.7'])).toEqual(['429', '429'])
    expect(await sequence(server.url, ['198.51.100.8'])).toEqual(['401'])
  })

  it('does not route odd spellings of the sign-in path, so they are no way round the limit', async () => {
    const odd = [
      '/api/auth//sign-in/email',
      '/api/auth/sign-in//email',
      '/api/auth/sign-in/email/',
      '/api/auth/sign-in/%65mail',
      '/api/auth/sign-in%2Femail',
      '/api/auth/Sign-In/Email',
    ]
    const client = '203.0.113.30'
    // Before the limit is reached, and after: never routed, never a password check.
    for (const path of odd) expect((await signIn(server.url, client, path)).status, path).toBe(404)
    expect(await sequence(server.url, Array(SIGN_IN_LIMIT + 1).fill(client))).toEqual([...tried(SIGN_IN_LIMIT), '429'])
    for (const path of odd) {
      const response = await signIn(server.url, client, path)
      expect(response.status, path).toBe(404)
      expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' })
    }
    // A query string is the same route and the same counter.
    expect(await outcome(await signIn(server.url, client, '/api/auth/sign-in/email?attempt=5'))).toBe('429')
  })

  it('lets at most the limit of 50 parallel wrong-password sign-ins reach the password check', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, async () => outcome(await signIn(server.url, '203.0.113.40'))))
    const checked = results.filter((result) => result === '401').length
    expect(checked).toBeGreaterThanOrEqual(1)
    expect(checked).toBeLessThanOrEqual(SIGN_IN_LIMIT)
    expect(results.filter((result) => result === '429')).toHaveLength(50 - checked)
  })

  it('counts requests without a usable entry (garbage or no header) together under the proxy, without crashing', async () => {
    const garbage = ['not-an-ip', 'unknown', '203.0.113.300', '2001:db8::g', '', '198.51.100.1, garbage', 'fe80::1%eth0', undefined]
    expect(await sequence(server.url, garbage)).toEqual([...tried(SIGN_IN_LIMIT), ...Array(garbage.length - SIGN_IN_LIMIT).fill('429')])
    // Clients the proxy identified keep their own budgets, and the server is fine.
    expect(await sequence(server.url, ['203.0.113.50'])).toEqual(['401'])
    expect((await fetch(`${server.url}/api/auth/ok`)).status).toBe(200)
  })
})

describe('TRUST_PROXY unset: the socket peer is the client', () => {
  let dir = ''
  let server: RunningServer
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-noproxy-'))
    server = await start(dir, {})
  })
  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('ignores X-Forwarded-For, so a client cannot pick a fresh key', async () => {
    const picked = Array.from({ length: SIGN_IN_LIMIT + 2 }, (_, index) => `203.0.113.${60 + index}`)
    expect(await sequence(server.url, picked)).toEqual([...tried(SIGN_IN_LIMIT), '429', '429'])
  })
})

// A dist built before TRUST_PROXY existed would ignore it: that is a stale build, not a failure.
const builtWithTrustProxy = existsSync(builtMain) && readFileSync(builtMain, 'utf8').includes('TRUST_PROXY')

describe.skipIf(!builtWithTrustProxy)('the built server with TRUST_PROXY (skipped until `pnpm build`)', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-proxy-built-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('keys sign-in limits on the forwarded client', async () => {
    const port = await freePort()
    const server = runBuilt({ PORT: String(port), DATABASE_PATH: join(dir, 'a', 'auth.db'), TRUST_PROXY: '1' })
    try {
      await server.ready
      const base = `http://127.0.0.1:${port}`
      expect(await sequence(base, Array(SIGN_IN_LIMIT + 1).fill('203.0.113.70'))).toEqual([...tried(SIGN_IN_LIMIT), '429'])
      expect(await sequence(base, ['2001:db8:bb:1::1'])).toEqual(['401'])
      expect(await sequence(base, ['junk', 'junk', 'junk', 'more junk', undefined])).toEqual([...tried(SIGN_IN_LIMIT), '429', '429'])
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
    }
  })

  it('refuses to start with a TRUST_PROXY that is not a count', async () => {
    const server = runBuilt({ PORT: String(await freePort()), DATABASE_PATH: join(dir, 'b', 'auth.db'), TRUST_PROXY: 'true' })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain('Configuration error: TRUST_PROXY must be the number of reverse proxies')
  })
})
