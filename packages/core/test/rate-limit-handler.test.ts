import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { handleIncomingKey, type Incoming } from '../src/endpoint/incoming.js'
import { definePlugin } from '../src/plugins/types.js'
import { accountAuth } from './accounts.js'
import { BASE, request, testAuth } from './helpers.js'

const signInLike = defineEndpoint({
  method: 'POST',
  path: '/sign-in/thing',
  body: z.object({}).loose(),
  handler: () => ({ status: true }),
})

const plainThing = defineEndpoint({
  method: 'POST',
  path: '/plain-thing',
  body: z.object({}).loose(),
  handler: () => ({ status: true }),
})

const plugin = definePlugin({ id: 'limited', endpoints: { signInLike, plainThing } })

describe('rate limits through handler', () => {
  const send = (auth: ReturnType<typeof testAuth>, ip?: string) =>
    auth.handler(request('/api/auth/sign-in/thing', { json: {}, headers: ip ? { 'x-forwarded-for': ip } : {} }))

  it('50 parallel requests against the sign-in limit of 3 let exactly 3 through; the rest get 429 with X-Retry-After', async () => {
    const auth = testAuth({ plugins: [plugin] })
    const responses = await Promise.all(Array.from({ length: 50 }, () => send(auth, '203.0.113.9')))
    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(3)
    expect(statuses.filter((status) => status === 429)).toHaveLength(47)
    const limited = responses.find((response) => response.status === 429)
    expect(Number(limited?.headers.get('x-retry-after'))).toBeGreaterThan(0)
    expect(await limited?.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Please try again later.' })
  })

  it('the window resets with time', async () => {
    const auth = testAuth({ plugins: [plugin] })
    for (let index = 0; index < 3; index++) expect((await send(auth, '198.51.100.1')).status).toBe(200)
    expect((await send(auth, '198.51.100.1')).status).toBe(429)
    auth.clock.advance(11_000)
    expect((await send(auth, '198.51.100.1')).status).toBe(200)
  })

  it('counts IPv6 clients per /64', async () => {
    const auth = testAuth({ plugins: [plugin] })
    const addresses = ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::3', '2001:db8:1:2::4']
    const statuses = []
    for (const address of addresses) statuses.push((await send(auth, address)).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    expect((await send(auth, '2001:db8:1:3::1')).status).toBe(200)
  })

  const warnings = (lines: string[]) => ({ level: 'warn' as const, log: (_level: string, message: string) => lines.push(message) })

  it('invalid forwarded addresses are not keys: they share one budget, and valid clients keep theirs', async () => {
    const lines: string[] = []
    const auth = testAuth({ plugins: [plugin], logger: warnings(lines) })
    const statuses = []
    for (let index = 0; index < 5; index++) statuses.push((await send(auth, `not-an-ip-${index}`)).status)
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    // An empty proxy entry and a list shorter than trustedProxyCount are unusable too, and count in the same budget.
    expect((await send(auth, '203.0.113.7, ')).status).toBe(429)
    const twoProxies = testAuth({ plugins: [plugin], advanced: { ipAddress: { trustedProxyCount: 2 } } })
    for (let index = 0; index < 3; index++) expect((await send(twoProxies, `198.51.100.${index}`)).status).toBe(200)
    expect((await send(twoProxies, '198.51.100.9')).status).toBe(429)
    expect((await send(twoProxies, '6.6.6.6, 198.51.100.9')).status).toBe(200)
    expect((await send(auth, '192.0.2.44')).status).toBe(200)
    expect(lines).toEqual([expect.stringContaining('rate limited by the connection address, or all together')])
  })

  it('without any client header a web Request to sign-in counts under one shared key: the 4th within the window is 429', async () => {
    const lines: string[] = []
    const auth = accountAuth({ rateLimit: { enabled: true }, logger: warnings(lines) })
    const signIn = (headers: Record<string, string> = {}) =>
      auth.handler(request('/api/auth/sign-in/email', { json: { email: 'nobody@example.com', password: 'whatever1' }, headers: { origin: BASE, ...headers } }))
    const statuses = []
    for (let index = 0; index < 5; index++) statuses.push((await signIn()).status)
    expect(statuses).toEqual([401, 401, 401, 429, 429])
    // A client with a valid header keeps its own budget; omitting the header buys none.
    expect((await signIn({ 'x-forwarded-for': '203.0.113.20' })).status).toBe(401)
    auth.clock.advance(11_000)
    expect((await signIn()).status).toBe(401)
    expect(lines).toEqual([expect.stringContaining('credential paths (sign-in, sign-up, password reset, ...) are rate limited all together')])
  })

  it('without any client header other paths go through uncounted; failClosed decides per path', async () => {
    const sendPlain = (auth: ReturnType<typeof testAuth>) => auth.handler(request('/api/auth/plain-thing', { json: {} }))
    const statuses = async (auth: ReturnType<typeof testAuth>, sendOne: (auth: ReturnType<typeof testAuth>) => Promise<Response>) => {
      const answers = []
      for (let index = 0; index < 3; index++) answers.push((await sendOne(auth)).status)
      return answers
    }
    const tight = { window: 60, max: 1 }
    const auth = testAuth({ plugins: [plugin], rateLimit: { customRules: { '/plain-thing': tight } } })
    expect(await statuses(auth, sendPlain)).toEqual([200, 200, 200])
    const closedPlain = testAuth({ plugins: [plugin], rateLimit: { customRules: { '/plain-thing': { ...tight, failClosed: true } } } })
    expect(await statuses(closedPlain, sendPlain)).toEqual([200, 429, 429])
    const openSignIn = testAuth({ plugins: [plugin], rateLimit: { customRules: { '/sign-in/thing': { ...tight, failClosed: false } } } })
    expect(await statuses(openSignIn, (limited) => send(limited))).toEqual([200, 200, 200])
  })

  it('with disableIpTracking nothing is counted per client and nothing is warned', async () => {
    const lines: string[] = []
    const auth = testAuth({ plugins: [plugin], logger: warnings(lines), advanced: { ipAddress: { disableIpTracking: true } } })
    const statuses = []
    for (let index = 0; index < 5; index++) statuses.push((await send(auth)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    expect(lines).toEqual([])
  })

  it('with the peer known (node:http glue), a request without its configured header counts under the peer', async () => {
    const auth = testAuth({ plugins: [plugin], advanced: { ipAddress: { ipAddressHeaders: ['cf-connecting-ip'] } } })
    const fromPeer = (peerAddress: string, headers: Record<string, string> = {}): Incoming => ({
      method: 'POST',
      pathname: '/api/auth/sign-in/thing',
      query: '',
      headers: new Headers({ 'content-type': 'application/json', ...headers }),
      peerAddress,
      text: async () => '{}',
      request: () => request('/api/auth/sign-in/thing', { json: {} }),
    })
    const statuses = []
    for (let index = 0; index < 4; index++) statuses.push((await auth[handleIncomingKey](fromPeer('::ffff:192.0.2.60'))).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    // The same peer spelt as IPv4, and garbage in the header: the same budget. Another peer, or a valid header: their own.
    expect((await auth[handleIncomingKey](fromPeer('192.0.2.60', { 'cf-connecting-ip': 'garbage' }))).status).toBe(429)
    expect((await auth[handleIncomingKey](fromPeer('192.0.2.61'))).status).toBe(200)
    expect((await auth[handleIncomingKey](fromPeer('192.0.2.60', { 'cf-connecting-ip': '198.51.100.60' }))).status).toBe(200)
  })

  it('auth.handler(request, { ip }) without a forwarded header: four wrong passwords from one address, the fourth is 429; another address has its own budget', async () => {
    const lines: string[] = []
    const auth = accountAuth({ rateLimit: { enabled: true }, logger: warnings(lines) })
    const signIn = (ip: string, headers: Record<string, string> = {}) =>
      auth.handler(
        request('/api/auth/sign-in/email', { json: { email: 'nobody@example.com', password: 'whatever1' }, headers: { origin: BASE, ...headers } }),
        { ip },
      )
    const statuses = []
    for (let index = 0; index < 4; index++) statuses.push((await signIn('192.0.2.80')).status)
    expect(statuses).toEqual([401, 401, 401, 429])
    // The same address in its IPv4-mapped spelling shares the budget; another address does not.
    expect((await signIn('::ffff:192.0.2.80')).status).toBe(429)
    const other = []
    for (let index = 0; index < 4; index++) other.push((await signIn('192.0.2.81')).status)
    expect(other).toEqual([401, 401, 401, 429])
    // With no proxy in front, a header the client wrote itself buys no fresh budget: the connection is the rightmost hop.
    expect((await signIn('192.0.2.80', { 'x-forwarded-for': '203.0.113.30' })).status).toBe(429)
    expect(lines).toEqual([])
  })

  it('auth.handler(request, { ip }) behind one proxy (trustedProxyCount: 2): the proxy\'s entry names the client, and a request without it counts under the connection', async () => {
    const auth = testAuth({ plugins: [plugin], advanced: { ipAddress: { trustedProxyCount: 2 } } })
    const sendVia = (ip: string, forwarded?: string) =>
      auth.handler(request('/api/auth/sign-in/thing', { json: {}, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }), { ip })
    const statuses = []
    for (let index = 0; index < 4; index++) statuses.push((await sendVia('10.0.0.2', `203.0.113.${index}`)).status)
    expect(statuses).toEqual([200, 200, 200, 200])
    const unproxied = []
    for (let index = 0; index < 4; index++) unproxied.push((await sendVia('192.0.2.70')).status)
    expect(unproxied).toEqual([200, 200, 200, 429])
  })

  it('ctx.ip from auth.handler(request, { ip }): the connection with no proxy (a client-written header cannot replace it), the proxy\'s entry behind one', async () => {
    const seen: Array<string | null> = []
    const whoAmI = defineEndpoint({ method: 'GET', path: '/who-am-i', handler: ({ ip }) => (seen.push(ip), { ip }) })
    const probe = definePlugin({ id: 'probe', endpoints: { whoAmI } })
    const auth = testAuth({ plugins: [probe] })
    const spoofed = { headers: { 'x-forwarded-for': '203.0.113.90' } }
    await auth.handler(request('/api/auth/who-am-i'), { ip: '192.0.2.90' })
    await auth.handler(request('/api/auth/who-am-i', spoofed), { ip: '192.0.2.90' })
    await auth.handler(request('/api/auth/who-am-i'))
    await auth.handler(request('/api/auth/who-am-i'), { ip: 'not an address' })
    const proxied = testAuth({ plugins: [probe], advanced: { ipAddress: { trustedProxyCount: 2 } } })
    await proxied.handler(request('/api/auth/who-am-i', spoofed), { ip: '10.0.0.2' })
    const untracked = testAuth({ plugins: [probe], advanced: { ipAddress: { disableIpTracking: true } } })
    await untracked.handler(request('/api/auth/who-am-i'), { ip: '192.0.2.90' })
    expect(seen).toEqual(['192.0.2.90', '192.0.2.90', null, null, '203.0.113.90', null])
  })

  describe('auth.handler(request) with no { ip }: x-forwarded-for is trusted only when the operator opted in (docs/security.md#client-ip-and-rate-limit-keys-securityipts)', () => {
    const wrongPassword = (auth: ReturnType<typeof accountAuth>, headers: Record<string, string>) =>
      auth.handler(request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: 'not the password' }, headers: { origin: BASE, ...headers } }))

    it('without an opt-in, a self-written x-forwarded-for buys no fresh budget: rotating it, the 4th wrong password is 429; one warning names the fix', async () => {
      const lines: string[] = []
      // `ipAddress: {}` is the library's default: neither trustedProxyCount nor ipAddressHeaders set.
      const auth = accountAuth({ rateLimit: { enabled: true }, logger: warnings(lines), advanced: { ipAddress: {} } })
      const statuses = []
      for (let index = 0; index < 5; index++) statuses.push((await wrongPassword(auth, { 'x-forwarded-for': `203.0.113.${index + 1}` })).status)
      expect(statuses).toEqual([401, 401, 401, 429, 429])
      // Leaving the header out shares the same budget.
      expect((await wrongPassword(auth, {})).status).toBe(429)
      expect(lines).toEqual([
        expect.stringContaining('x-forwarded-for is ignored'),
        expect.stringContaining('no client IP in the configured headers'),
      ])
      expect(lines[0]).toContain('auth.handler(request, { ip })')
      expect(lines[0]).toContain('advanced.ipAddress.trustedProxyCount')
      // The connection's address, when given, is trusted as before: a budget of its own.
      expect((await auth.handler(request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: 'not the password' }, headers: { origin: BASE } }), { ip: '192.0.2.5' })).status).toBe(401)
    })

    it('with trustedProxyCount or ipAddressHeaders set, each forwarded address has its own budget', async () => {
      const lines: string[] = []
      const proxied = accountAuth({ rateLimit: { enabled: true }, logger: warnings(lines), advanced: { ipAddress: { trustedProxyCount: 1 } } })
      const rotating = []
      for (let index = 0; index < 5; index++) rotating.push((await wrongPassword(proxied, { 'x-forwarded-for': `203.0.113.${index + 1}` })).status)
      expect(rotating).toEqual([401, 401, 401, 401, 401])
      const one = []
      for (let index = 0; index < 4; index++) one.push((await wrongPassword(proxied, { 'x-forwarded-for': '198.51.100.9' })).status)
      expect(one).toEqual([401, 401, 401, 429])
      expect(lines).toEqual([])

      const cloudflare = accountAuth({ rateLimit: { enabled: true }, advanced: { ipAddress: { ipAddressHeaders: ['cf-connecting-ip'] } } })
      const perAddress = []
      for (let index = 0; index < 4; index++) perAddress.push((await wrongPassword(cloudflare, { 'cf-connecting-ip': `203.0.113.${index + 1}` })).status)
      expect(perAddress).toEqual([401, 401, 401, 401])
    })

    it('ctx.ip (stored on sessions) follows the same rule, for handler and api calls alike', async () => {
      const seen: Array<string | null> = []
      const whoAmI = defineEndpoint({ method: 'GET', path: '/who-am-i', handler: ({ ip }) => (seen.push(ip), { ip }) })
      const probe = definePlugin({ id: 'probe', endpoints: { whoAmI } })
      const spoofed = { 'x-forwarded-for': '203.0.113.90' }
      const bare = testAuth({ plugins: [probe], advanced: { ipAddress: {} } })
      await bare.handler(request('/api/auth/who-am-i', { headers: spoofed }))
      await bare.api.whoAmI({ headers: spoofed })
      const proxied = testAuth({ plugins: [probe], advanced: { ipAddress: { trustedProxyCount: 1 } } })
      await proxied.handler(request('/api/auth/who-am-i', { headers: spoofed }))
      await proxied.api.whoAmI({ headers: spoofed })
      expect(seen).toEqual([null, null, '203.0.113.90', '203.0.113.90'])
    })
  })

  it('custom rules override, false disables, and server-side api calls are never limited', async () => {
    const auth = testAuth({ plugins: [plugin], rateLimit: { customRules: { '/sign-in/thing': { window: 60, max: 1 } } } })
    expect((await send(auth, '192.0.2.1')).status).toBe(200)
    expect((await send(auth, '192.0.2.1')).status).toBe(429)
    for (let index = 0; index < 10; index++) await expect(auth.api.signInLike({ body: {} })).resolves.toEqual({ status: true })

    const off = testAuth({ plugins: [plugin], rateLimit: { customRules: { '/sign-in/*': false } } })
    for (let index = 0; index < 6; index++) expect((await send(off, '192.0.2.1')).status).toBe(200)
  })
})
