import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../endpoint/define-endpoint.js'
import { definePlugin } from '../plugins/types.js'
import { testAuth } from '../../test/helpers.js'
import { toNodeHandler } from './node.js'

const whoami = defineEndpoint({
  method: 'POST',
  path: '/whoami',
  body: z.object({ name: z.string() }),
  handler: ({ body, ip, cookies, request }) => {
    cookies.set('first', 'a')
    cookies.set('second', 'b')
    return { name: body.name, ip, agent: request?.headers.get('user-agent') ?? null, path: request ? new URL(request.url).pathname : null }
  },
})

const page = defineEndpoint({
  method: 'GET',
  path: '/page',
  handler: () => new Response('<p>hello</p>', { headers: { 'content-type': 'text/html' } }),
})

describe.each(['auth (direct)', 'auth.handler (web Request)'])('toNodeHandler(%s) with no proxy setting: the socket peer is believed', (mode) => {
  // `ipAddress: {}`: the library's default, no trustedProxyCount (docs/rate-limits.md#whose-header-is-believed).
  const auth = testAuth({ plugins: [definePlugin({ id: 'node-test', endpoints: { whoami } })], rateLimit: { enabled: false }, advanced: { ipAddress: {} } })
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer(toNodeHandler(mode === 'auth (direct)' ? auth : auth.handler))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('ctx.ip is the peer, and a client-written x-forwarded-for does not replace it', async () => {
    for (const headers of [{}, { 'x-forwarded-for': '6.6.6.6' }] as Record<string, string>[]) {
      const response = await fetch(`${base}/api/auth/whoami`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'Ada' }),
      })
      expect((await response.json()).ip).toBe('127.0.0.1')
    }
  })
})

describe.each(['auth (direct)', 'auth.handler (web Request)'])('toNodeHandler(%s) over a real socket', (mode) => {
  const auth = testAuth({ plugins: [definePlugin({ id: 'node-test', endpoints: { whoami, page } })], rateLimit: { enabled: false } })
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer(toNodeHandler(mode === 'auth (direct)' ? auth : auth.handler))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('streams the body in, reports the socket peer as the client, and sends every Set-Cookie', async () => {
    const response = await fetch(`${base}/api/auth/whoami`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ name: 'Ada', ip: '127.0.0.1', agent: 'node', path: '/api/auth/whoami' })
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.getSetCookie().map((cookie) => cookie.split('=')[0])).toEqual(['gatehouse.first', 'gatehouse.second'])
  })

  it('a spoofed x-forwarded-for does not replace the peer address', async () => {
    const response = await fetch(`${base}/api/auth/whoami`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '6.6.6.6' },
      body: JSON.stringify({ name: 'Eve' }),
    })
    expect((await response.json()).ip).toBe('127.0.0.1')
  })

  it('passes a handler-made Response through, and refuses an oversized body with 413', async () => {
    const html = await fetch(`${base}/api/auth/page`)
    expect(html.headers.get('content-type')).toBe('text/html')
    expect(await html.text()).toBe('<p>hello</p>')
    const big = await fetch(`${base}/api/auth/whoami`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1) }),
    })
    expect(big.status).toBe(413)
  })

  it('answers 404 for other paths', async () => {
    const response = await fetch(`${base}/elsewhere`)
    expect(response.status).toBe(404)
  })
})

describe('toNodeHandler behind one proxy (trustedProxyCount: 2, the peer appended as a second hop)', () => {
  const limitedWhoami = defineEndpoint({ ...whoami, path: '/sign-in/whoami' })
  let server: Server
  let base: string
  beforeAll(async () => {
    const auth = testAuth({
      plugins: [definePlugin({ id: 'node-proxy-test', endpoints: { limitedWhoami } })],
      advanced: { ipAddress: { trustedProxyCount: 2 } },
    })
    server = createServer(toNodeHandler(auth))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const send = (forwarded?: string) =>
    fetch(`${base}/api/auth/sign-in/whoami`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(forwarded === undefined ? {} : { 'x-forwarded-for': forwarded }) },
      body: JSON.stringify({ name: 'Eve' }),
    })

  it("takes the proxy's entry as the client", async () => {
    const response = await send('6.6.6.6, 203.0.113.7')
    expect(response.status).toBe(200)
    expect(((await response.json()) as { ip: string }).ip).toBe('203.0.113.7')
  })

  it('counts requests without a usable proxy entry under the socket peer: a missing header or garbage never buys a fresh budget', async () => {
    const first = await send()
    expect(first.status).toBe(200)
    // No address is made up for the endpoint: only the limiter falls back to the peer.
    expect(((await first.json()) as { ip: string | null }).ip).toBeNull()
    const statuses = [(await send('not-an-ip')).status, (await send('')).status, (await send('garbage-2')).status, (await send()).status]
    expect(statuses).toEqual([200, 200, 429, 429])
    // A client with a usable entry keeps its own budget.
    expect((await send('198.51.100.20')).status).toBe(200)
  })
})

describe('toNodeHandler and setup mistakes', () => {
  const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ base: string; server: Server }> => {
    const server = createServer(handler)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
  }
  const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))
  const post = (base: string) =>
    fetch(`${base}/api/auth/whoami`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada' }) })

  /** What express.json() does: reads the whole stream, then marks the request parsed (body-parser's `_body`). */
  const jsonParser = (mark: boolean) => async (req: IncomingMessage) => {
    let text = ''
    for await (const chunk of req) text += String(chunk)
    Object.assign(req, mark ? { body: JSON.parse(text), _body: true } : {})
  }

  it.each([
    ['auth (direct)', true],
    ['auth.handler (web Request)', true],
    ['auth (direct)', false],
  ] as const)('a body parser mounted before %s (marked: %s) gets a 500 saying to mount the handler first, not a validation error', async (mode, mark) => {
    const auth = testAuth({ plugins: [definePlugin({ id: 'node-parser-test', endpoints: { whoami } })], rateLimit: { enabled: false } })
    const authHandler = toNodeHandler(mode === 'auth (direct)' ? auth : auth.handler)
    const parse = jsonParser(mark)
    const { server, base } = await listen((req, res) => void parse(req).then(() => authHandler(req, res)))
    try {
      const response = await post(base)
      expect(response.status).toBe(500)
      expect(await response.json()).toEqual({
        code: 'BODY_ALREADY_READ',
        message: 'Request body was already read by a body parser: mount the auth handler before express.json() or any other body parser',
      })
    } finally {
      await close(server)
    }
  })

  it('a database that cannot be opened: every request answers 500, and the cause is logged once', async () => {
    const lines: Array<{ level: string; message: string; meta?: Record<string, unknown> }> = []
    const auth = testAuth({
      database: async () => {
        throw new Error('Cannot open database because the directory does not exist', { cause: Object.assign(new Error('ENOENT'), { code: 'ENOENT' }) })
      },
      logger: { log: (level, message, meta) => lines.push({ level, message, ...(meta ? { meta } : {}) }) },
    })
    const { server, base } = await listen(toNodeHandler(auth))
    try {
      expect((await fetch(`${base}/api/auth/ok`)).status).toBe(500)
      expect((await fetch(`${base}/api/auth/ok`)).status).toBe(500)
      expect(lines).toEqual([
        {
          level: 'error',
          message: expect.stringContaining('initialization failed (opening the database'),
          meta: {
            name: 'Error',
            message: 'Cannot open database because the directory does not exist',
            cause: { name: 'Error', message: 'ENOENT', code: 'ENOENT' },
          },
        },
      ])
    } finally {
      await close(server)
    }
  })
})
