import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import * as oauth from 'oauth4webapi'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { exactOrigins, type ResolvedAddress, type SafeFetchPolicy } from './policy.js'
import { createSafeFetch } from './safe-fetch.js'

interface Seen {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

interface TestServer {
  readonly origin: string
  readonly port: number
  /** TCP connections accepted, whether or not a request followed (a TLS hello counts too). */
  connections: number
  readonly requests: Seen[]
}

const servers: ReturnType<typeof createServer>[] = []

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  }
})

/** A plain http server on 127.0.0.1 that records what reaches it, then lets `handler` answer. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse, seen: TestServer) => void): Promise<TestServer> {
  const server = createServer()
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  const state: TestServer = { origin: `http://127.0.0.1:${port}`, port, connections: 0, requests: [] }
  server.on('connection', () => {
    state.connections += 1
  })
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString()
      state.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body })
      handler(req, res, state)
    })
  })
  return state
}

function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(value))
}

function redirect(res: ServerResponse, location: string, status = 302): void {
  res.writeHead(status, { location })
  res.end()
}

/** An injected resolver answering a fixed list per call (the last list repeats), recording each name. */
function lookupAnswering(...answers: string[][]) {
  let calls = 0
  return vi.fn(async (_hostname: string): Promise<ResolvedAddress[]> => {
    const list = answers[Math.min(calls, answers.length - 1)] ?? []
    calls += 1
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  })
}

function policy(overrides: Partial<SafeFetchPolicy> & { trusted?: readonly TestServer[] } = {}): SafeFetchPolicy {
  const { trusted = [], ...rest } = overrides
  return { trustedOrigins: exactOrigins(trusted.map((server) => server.origin)), ...rest }
}

const refused = (reason: string) => expect.objectContaining({ name: 'UnsafeUrlError', reason })

describe('createSafeFetch: which hosts', () => {
  it('refuses a real server on 127.0.0.1 unless its origin is trusted, then fetches it over http', async () => {
    const idp = await serve((_req, res) => json(res, { ok: true }))
    await expect(createSafeFetch(policy())(`${idp.origin}/doc`)).rejects.toEqual(refused('scheme'))
    await expect(createSafeFetch(policy())(`https://127.0.0.1:${idp.port}/doc`)).rejects.toEqual(refused('address'))
    expect(idp.connections).toBe(0)

    const response = await createSafeFetch(policy({ trusted: [idp] }))(`${idp.origin}/doc?x=1`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.url).toBe(`${idp.origin}/doc?x=1`)
    expect(response.redirected).toBe(false)
    expect(await response.json()).toEqual({ ok: true })
    expect(idp.requests).toMatchObject([{ method: 'GET', path: '/doc?x=1' }])
  })

  it('refuses http to an untrusted public name without resolving or connecting', async () => {
    const lookup = lookupAnswering(['93.184.215.14'])
    await expect(createSafeFetch(policy({ lookup }))('http://idp.example.com/.well-known/openid-configuration')).rejects.toEqual(
      refused('scheme'),
    )
    expect(lookup).not.toHaveBeenCalled()
  })

  it('refuses a name whose lookup answers a private address, or a public and a private one', async () => {
    for (const answer of [['10.0.0.1'], ['93.184.215.14', '10.0.0.1'], ['169.254.169.254']]) {
      const lookup = lookupAnswering(answer)
      await expect(createSafeFetch(policy({ lookup }))('https://intranet.example/')).rejects.toEqual(refused('address'))
      expect(lookup).toHaveBeenCalledWith('intranet.example')
    }
  })

  it('refuses a name resolving to loopback at connect time, so the server on that address is never reached', async () => {
    const idp = await serve((_req, res) => json(res, {}))
    const lookup = lookupAnswering(['127.0.0.1'])
    await expect(createSafeFetch(policy({ lookup }))(`https://sneaky.example:${idp.port}/`)).rejects.toEqual(refused('address'))
    expect(idp.connections).toBe(0)
  })

  it('connects to the address its own lookup checked: the injected answer is where the socket goes', async () => {
    // idp.internal exists in no DNS: reaching the server proves the socket took the checked answer.
    const idp = await serve((_req, res) => json(res, { reached: true }))
    const lookup = lookupAnswering(['127.0.0.1'])
    const origin = `http://idp.internal:${idp.port}`
    const safeFetch = createSafeFetch({ trustedOrigins: exactOrigins([origin]), lookup })
    expect(await (await safeFetch(`${origin}/x`)).json()).toEqual({ reached: true })
    expect(idp.requests[0]?.headers.host).toBe(`idp.internal:${idp.port}`)
  })

  it('resolves once per connection: a name that rebinds from a public address to loopback never reaches loopback', async () => {
    // A check made before connecting (answer 1: public) followed by a connect that resolves
    // again (answer 2: 127.0.0.1) would reach this server. Ours connects to the checked
    // public address (unreachable or slow here), so the request fails and the server sees nothing.
    const idp = await serve((_req, res) => json(res, { leaked: true }))
    const lookup = lookupAnswering(['1.1.1.1'], ['127.0.0.1'])
    const safeFetch = createSafeFetch(policy({ lookup, timeoutMs: 500 }))
    await expect(safeFetch(`https://rebind.example:${idp.port}/`)).rejects.toBeInstanceOf(Error)
    expect(lookup).toHaveBeenCalledTimes(1)
    expect(idp.connections).toBe(0)
  })

  it('refuses IPv6 forms of loopback: [::1], IPv4-mapped literals and lookup answers, NAT64 of a private address', async () => {
    const idp = await serve((_req, res) => json(res, {}))
    const plain = createSafeFetch(policy())
    await expect(plain(`https://[::1]:${idp.port}/`)).rejects.toEqual(refused('address'))
    await expect(plain(`https://[::ffff:7f00:1]:${idp.port}/`)).rejects.toEqual(refused('address'))
    await expect(plain(`https://[::ffff:127.0.0.1]:${idp.port}/`)).rejects.toEqual(refused('address'))
    for (const answer of ['::ffff:127.0.0.1', '::1', '64:ff9b::a00:1', 'fe80::1']) {
      const safeFetch = createSafeFetch(policy({ lookup: lookupAnswering([answer]) }))
      await expect(safeFetch(`https://v6.example:${idp.port}/`)).rejects.toEqual(refused('address'))
    }
    expect(idp.connections).toBe(0)
  })

  it('refuses credentials in the URL', async () => {
    const idp = await serve((_req, res) => json(res, {}))
    const url = `http://user:secret@127.0.0.1:${idp.port}/`
    await expect(createSafeFetch(policy({ trusted: [idp] }))(url)).rejects.toEqual(refused('invalid_url'))
    expect(idp.connections).toBe(0)
  })
})

describe('createSafeFetch: redirects', () => {
  it('refuses a redirect from a trusted server to an untrusted loopback URL, over https or http', async () => {
    const other = await serve((_req, res) => json(res, { leaked: true }))
    const idp = await serve((req, res) =>
      redirect(res, req.url === '/https' ? `https://127.0.0.1:${other.port}/` : `${other.origin}/`),
    )
    const safeFetch = createSafeFetch(policy({ trusted: [idp] }))
    await expect(safeFetch(`${idp.origin}/https`)).rejects.toEqual(refused('address'))
    await expect(safeFetch(`${idp.origin}/http`)).rejects.toEqual(refused('scheme'))
    expect(idp.requests).toHaveLength(2)
    expect(other.connections).toBe(0)
  })

  it('refuses a redirect to the metadata address, as a literal or through a name', async () => {
    const lookup = lookupAnswering(['169.254.169.254'])
    const idp = await serve((req, res) =>
      redirect(res, req.url === '/literal' ? 'https://169.254.169.254/latest/meta-data/' : 'https://metadata.example/'),
    )
    const safeFetch = createSafeFetch(policy({ trusted: [idp], lookup }))
    await expect(safeFetch(`${idp.origin}/literal`)).rejects.toEqual(refused('address'))
    expect(lookup).not.toHaveBeenCalled()
    await expect(safeFetch(`${idp.origin}/name`)).rejects.toEqual(refused('address'))
    expect(lookup).toHaveBeenCalledWith('metadata.example')
  })

  it('follows up to maxRedirects and refuses one more', async () => {
    const idp = await serve((req, res) => {
      const step = Number(req.url?.slice(1))
      if (step > 0) redirect(res, `/${step - 1}`)
      else json(res, { landed: true })
    })
    const safeFetch = createSafeFetch(policy({ trusted: [idp] }))
    const response = await safeFetch(`${idp.origin}/3`)
    expect(await response.json()).toEqual({ landed: true })
    expect(response.redirected).toBe(true)
    expect(response.url).toBe(`${idp.origin}/0`)
    idp.requests.length = 0
    await expect(safeFetch(`${idp.origin}/4`)).rejects.toEqual(refused('redirects'))
    expect(idp.requests.map((seen) => seen.path)).toEqual(['/4', '/3', '/2', '/1'])
    await expect(createSafeFetch(policy({ trusted: [idp], maxRedirects: 0 }))(`${idp.origin}/1`)).rejects.toEqual(
      refused('redirects'),
    )
  })

  it("hands the 3xx back under redirect: 'manual' (oauth4webapi's mode) and refuses it under 'error'", async () => {
    const idp = await serve((_req, res) => redirect(res, 'https://169.254.169.254/'))
    const safeFetch = createSafeFetch(policy({ trusted: [idp] }))
    const response = await safeFetch(`${idp.origin}/`, { redirect: 'manual' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('https://169.254.169.254/')
    await expect(safeFetch(`${idp.origin}/`, { redirect: 'error' })).rejects.toEqual(refused('redirects'))
  })

  it('turns POST into GET on 303 and 302 as fetch does, keeps it on 307, drops Authorization across origins', async () => {
    const target = await serve((_req, res) => json(res, {}))
    const idp = await serve((req, res) => {
      if (req.url === '/303') redirect(res, '/landed', 303)
      else if (req.url === '/302') redirect(res, '/landed', 302)
      else if (req.url === '/307') redirect(res, '/landed', 307)
      else if (req.url === '/away') redirect(res, `${target.origin}/landed`, 307)
      else json(res, {})
    })
    const safeFetch = createSafeFetch(policy({ trusted: [idp, target] }))
    const init = { method: 'POST', body: new URLSearchParams({ code: 'abc' }), headers: { authorization: 'Basic czZC' } }
    for (const path of ['/303', '/302', '/307']) await safeFetch(`${idp.origin}${path}`, init)
    const landed = idp.requests.filter((seen) => seen.path === '/landed')
    expect(landed.map((seen) => [seen.method, seen.body, seen.headers['content-type']])).toEqual([
      ['GET', '', undefined],
      ['GET', '', undefined],
      ['POST', 'code=abc', 'application/x-www-form-urlencoded;charset=UTF-8'],
    ])
    expect(landed.every((seen) => seen.headers.authorization === 'Basic czZC')).toBe(true)
    await safeFetch(`${idp.origin}/away`, init)
    expect(target.requests).toMatchObject([{ method: 'POST', body: 'code=abc' }])
    expect(target.requests[0]?.headers.authorization).toBeUndefined()
  })
})

describe('createSafeFetch: size and time', () => {
  const maxBytes = 1024

  it('refuses a body whose Content-Length is over the cap before reading it', async () => {
    // The server promises more than it sends and keeps the connection open: only the
    // up-front check answers before the timeout does.
    const idp = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(maxBytes + 1) })
      res.write('x')
    })
    const safeFetch = createSafeFetch(policy({ trusted: [idp], maxBytes, timeoutMs: 3_000 }))
    await expect(safeFetch(`${idp.origin}/`)).rejects.toEqual(refused('too_large'))
  })

  it('refuses a chunked body that grows over the cap, and accepts one of exactly the cap', async () => {
    const idp = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      const total = req.url === '/over' ? maxBytes + 1 : maxBytes
      for (let sent = 0; sent < total; sent += 100) res.write('y'.repeat(Math.min(100, total - sent)))
      res.end()
    })
    const safeFetch = createSafeFetch(policy({ trusted: [idp], maxBytes }))
    await expect(safeFetch(`${idp.origin}/over`)).rejects.toEqual(refused('too_large'))
    expect((await (await safeFetch(`${idp.origin}/exact`)).text()).length).toBe(maxBytes)
  })

  it('decodes a compressed body within the cap and refuses one that inflates past it (gzip bomb)', async () => {
    const idp = await serve((req, res) => {
      const plain = req.url === '/bomb' ? Buffer.alloc(maxBytes * 64) : Buffer.from('{"small":true}')
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' })
      res.end(gzipSync(plain))
    })
    const safeFetch = createSafeFetch(policy({ trusted: [idp], maxBytes }))
    const response = await safeFetch(`${idp.origin}/small`)
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(await response.json()).toEqual({ small: true })
    expect(idp.requests[0]?.headers['accept-encoding']).toBe('identity')
    await expect(safeFetch(`${idp.origin}/bomb`)).rejects.toEqual(refused('too_large'))
  })

  it('times out on a server that never answers, and on one that stops half-way through the body', async () => {
    const idp = await serve((req, res) => {
      if (req.url === '/half') {
        res.writeHead(200, { 'content-length': '100' })
        res.write('partial')
      }
    })
    const safeFetch = createSafeFetch(policy({ trusted: [idp], timeoutMs: 150 }))
    await expect(safeFetch(`${idp.origin}/silent`)).rejects.toEqual(refused('timeout'))
    await expect(safeFetch(`${idp.origin}/half`)).rejects.toEqual(refused('timeout'))
  })

  it("rejects with the caller's abort reason when the caller's signal aborts", async () => {
    const idp = await serve(() => {})
    const controller = new AbortController()
    const pending = createSafeFetch(policy({ trusted: [idp] }))(`${idp.origin}/`, { signal: controller.signal })
    controller.abort(new Error('caller gave up'))
    await expect(pending).rejects.toThrow('caller gave up')
  })

  it('reports a refused connection as fetch does (TypeError with the cause)', async () => {
    const idp = await serve((_req, res) => json(res, {}))
    const origin = idp.origin
    for (const server of servers.splice(0)) await new Promise((done) => server.close(done))
    await expect(createSafeFetch({ trustedOrigins: exactOrigins([origin]) })(`${origin}/`)).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: expect.objectContaining({ code: 'ECONNREFUSED' }),
    })
  })
})

describe('createSafeFetch as oauth4webapi customFetch', () => {
  it('runs OIDC discovery against a trusted local IdP', async () => {
    const idp = await serve((req, res) => {
      if (req.url === '/.well-known/openid-configuration') {
        json(res, { issuer: idp.origin, authorization_endpoint: `${idp.origin}/authorize`, jwks_uri: `${idp.origin}/jwks` })
      } else json(res, {}, 404)
    })
    const issuer = new URL(idp.origin)
    const response = await oauth.discoveryRequest(issuer, {
      [oauth.customFetch]: createSafeFetch(policy({ trusted: [idp] })),
      [oauth.allowInsecureRequests]: true,
    })
    const metadata = await oauth.processDiscoveryResponse(issuer, response)
    expect(metadata.jwks_uri).toBe(`${idp.origin}/jwks`)
    expect(idp.requests[0]?.headers.accept).toBe('application/json')
  })

  it('refuses the same IdP when its origin is not trusted, over http and over https through a name', async () => {
    const idp = await serve((_req, res) => json(res, { issuer: idp.origin }))
    await expect(
      oauth.discoveryRequest(new URL(idp.origin), {
        [oauth.customFetch]: createSafeFetch(policy()),
        [oauth.allowInsecureRequests]: true,
      }),
    ).rejects.toEqual(refused('scheme'))
    const safeFetch = createSafeFetch(policy({ lookup: lookupAnswering(['127.0.0.1']) }))
    await expect(
      oauth.discoveryRequest(new URL(`https://idp.example:${idp.port}`), { [oauth.customFetch]: safeFetch }),
    ).rejects.toEqual(refused('address'))
    expect(idp.connections).toBe(0)
  })
})
