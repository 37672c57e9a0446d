/**
 * The fetchers against a real in-process server: the wire format of a call
 * (docs/client.md#calls), `{ data, error }` answers, server errors narrowed by
 * code, and the client-side validation error (docs/client.md#errors) for
 * answers of the wrong shape.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as z from 'zod/mini'
import { createAuthClient, type AuthClientError, type ErrorCodes } from '../src/client/index.js'
import { BASE, email, PASSWORD, setup } from './fixtures.js'

function clientOf(context: ReturnType<typeof setup>) {
  return createAuthClient<typeof context.server>({ baseURL: BASE, fetch: context.browser.fetch })
}

describe('calls', () => {
  it('POSTs a JSON body when the route takes one and GETs with a query string otherwise, always with credentials', async () => {
    const context = setup()
    const client = clientOf(context)
    const address = email()
    await client.signUp.email({ name: 'Ada', email: address, password: PASSWORD, seats: 3 })
    await client.getSession({ disableCookieCache: 'true' })
    await client.signOut()

    expect(context.browser.requests.map(({ method, path, contentType }) => ({ method, path, contentType }))).toEqual([
      { method: 'POST', path: '/api/auth/sign-up/email', contentType: 'application/json' },
      { method: 'GET', path: '/api/auth/get-session?disableCookieCache=true', contentType: null },
      { method: 'POST', path: '/api/auth/sign-out', contentType: 'application/json' },
    ])
    expect(JSON.parse(context.browser.requests[0]?.body ?? '')).toEqual({ name: 'Ada', email: address, password: PASSWORD, seats: 3 })
    // A POST without input sends an empty object, which every all-optional body accepts.
    expect(context.browser.requests[2]?.body).toBe('{}')
    expect(context.browser.requests.every((request) => request.credentials === 'include')).toBe(true)
  })

  it('answers with the server data: Dates revived, additional fields carried', async () => {
    const context = setup()
    const client = clientOf(context)
    const address = email()
    const signUp = await client.signUp.email({
      name: 'Ada',
      email: address,
      password: PASSWORD,
      seats: 3,
      plan: 'pro',
      birthday: '1815-12-10T00:00:00.000Z',
    })
    expect(signUp.error).toBeNull()
    expect(typeof signUp.data?.token).toBe('string')

    const { data, error } = await client.getSession()
    expect(error).toBeNull()
    expect(data?.user).toMatchObject({ email: address, name: 'Ada', seats: 3, plan: 'pro', emailVerified: false })
    expect(data?.user.createdAt).toBeInstanceOf(Date)
    expect(data?.session.expiresAt).toBeInstanceOf(Date)
    expect(data?.session.expiresAt.getTime()).toBeGreaterThan(Date.now())
    // Additional date fields stay as JSON has them.
    expect(data?.user.birthday).toBe('1815-12-10T00:00:00.000Z')
    expect(data?.session.device).toBeNull()
    expect(data?.user).not.toHaveProperty('internalNote')
  })

  it('keeps the session in cookies until sign-out clears them', async () => {
    const context = setup()
    const client = clientOf(context)
    await client.signUp.email({ name: 'Ada', email: email(), password: PASSWORD, seats: 1 })
    expect(context.browser.cookies.size).toBeGreaterThan(0)

    const out = await client.signOut()
    expect(out).toEqual({ data: { success: true }, error: null })
    expect(context.browser.cookies.size).toBe(0)
    expect(await client.getSession()).toEqual({ data: null, error: null })
  })

  it('takes the page origin and /api/auth when no baseURL is given, and a base path from the baseURL', async () => {
    const context = setup()
    const fromPage = createAuthClient({ fetch: context.browser.fetch })
    expect(location.origin).toBe(BASE)
    expect((await fromPage.getSession()).error).toBeNull()
    const fromPath = createAuthClient({ baseURL: `${BASE}/api/auth/`, fetch: context.browser.fetch })
    expect((await fromPath.getSession()).error).toBeNull()
    const explicit = createAuthClient({ baseURL: BASE, basePath: 'api/auth', fetch: context.browser.fetch })
    expect((await explicit.getSession()).error).toBeNull()
    expect(context.browser.requests.map((request) => request.path)).toEqual([
      '/api/auth/get-session',
      '/api/auth/get-session',
      '/api/auth/get-session',
    ])
  })

  it('refuses to guess a base URL outside a browser', async () => {
    vi.stubGlobal('location', undefined)
    try {
      const client = createAuthClient({ fetch: setup().browser.fetch })
      await expect(client.getSession()).rejects.toThrow('`baseURL` is required outside a browser')
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('errors', () => {
  /** What an application does with an error: a switch over the narrowed code. */
  function explain(error: AuthClientError<ErrorCodes<[]>>): string {
    switch (error.code) {
      case 'INVALID_EMAIL_OR_PASSWORD':
        return 'wrong email or password'
      case 'EMAIL_NOT_VERIFIED':
        return 'check your inbox'
      case 'VALIDATION_ERROR':
        return `invalid: ${error.issues?.map((issue) => issue.path).join(', ')}`
      case 'CLIENT_VALIDATION_ERROR':
        return 'the server answered something unexpected'
      default:
        return error.message
    }
  }

  it('a server error keeps its status, catalogue code and message', async () => {
    const context = setup()
    const client = clientOf(context)
    const address = email()
    await client.signUp.email({ name: 'Ada', email: address, password: PASSWORD, seats: 1 })
    await client.signOut()

    const { data, error } = await client.signIn.email({ email: address, password: 'not the password' })
    expect(data).toBeNull()
    expect(error).toEqual({ status: 401, code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' })
    expect(error && explain(error)).toBe('wrong email or password')
  })

  it("the server's validation issues come along", async () => {
    const client = clientOf(setup())
    // @ts-expect-error a number where the server wants a string: sent anyway, to see the server refuse it
    const { error } = await client.signIn.email({ email: 42, password: PASSWORD })
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', issues: [{ path: 'body.email' }] })
    expect(error && explain(error)).toBe('invalid: body.email')
  })

  it('a password too short comes back with the minimum the server accepts', async () => {
    const client = clientOf(setup())
    const { error } = await client.signUp.email({ name: 'Ada', email: email(), password: 'short', seats: 1 })
    expect(error).toEqual({ status: 400, code: 'PASSWORD_TOO_SHORT', message: 'Password too short', minLength: 8 })
  })

  it('an answer of the wrong shape is a client-side validation error, not a silent undefined', async () => {
    // A server whose get-session answers an older shape: a user id as a number, no createdAt.
    const context = setup({
      after: [
        {
          matcher: (ctx) => ctx.path === '/get-session',
          handler: ({ returned }) => {
            if (!returned || typeof returned !== 'object' || !('user' in returned)) return
            const user = returned.user as Record<string, unknown>
            return { returned: { ...returned, user: { ...user, id: 7, createdAt: undefined } } }
          },
        },
      ],
    })
    const client = clientOf(context)
    await client.signUp.email({ name: 'Ada', email: email(), password: PASSWORD, seats: 1 })

    const { data, error } = await client.getSession()
    expect(data).toBeNull()
    expect(error).toMatchObject({ status: 200, code: 'CLIENT_VALIDATION_ERROR', message: 'Response does not match its expected shape' })
    expect(error?.issues?.map((issue) => issue.path).sort()).toEqual(['response.user.createdAt', 'response.user.id'])
    expect(error && explain(error)).toBe('the server answered something unexpected')
  })

  it('a 204 No Content answer is null data, not a validation error', async () => {
    const noContent = { id: 'no-content', routes: { ping: { endpoint: 'ping', method: 'POST', path: '/ping', output: z.null() } } } as const
    const client = createAuthClient({ baseURL: BASE, fetch: async () => new Response(null, { status: 204 }), plugins: [noContent] })
    expect(await client.ping()).toEqual({ data: null, error: null })
  })

  it('an answer that is not JSON is a client-side validation error', async () => {
    // GET /error is the server's HTML page: a route declared as JSON that answers HTML.
    const pages = { id: 'pages', routes: { errorPage: { endpoint: 'error', method: 'GET', path: '/error', output: z.object({}) } } } as const
    const context = setup()
    const client = createAuthClient({ baseURL: BASE, fetch: context.browser.fetch, plugins: [pages] })
    const { error } = await client.errorPage()
    expect(error).toEqual({
      status: 200,
      code: 'CLIENT_VALIDATION_ERROR',
      message: 'Response does not match its expected shape',
      issues: [{ path: 'response', message: 'not JSON' }],
    })
  })
})

describe('errors that never reach the server', () => {
  let servers: Server[] = []
  afterEach(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
    servers = []
  })

  /** A real HTTP server on 127.0.0.1 with an ephemeral port. */
  async function listen(answer: (response: import('node:http').ServerResponse) => void): Promise<{ url: string; server: Server }> {
    const server = createServer((_request, response) => answer(response))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
  }

  it('an error page from something in between (a proxy) is a client-side validation error with its status', async () => {
    const { url } = await listen((response) => response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'))
    const client = createAuthClient({ baseURL: url, fetch: (input, init) => fetch(input, init) })
    expect((await client.getSession()).error).toEqual({
      status: 502,
      code: 'CLIENT_VALIDATION_ERROR',
      message: 'Response does not match its expected shape',
      issues: [{ path: 'response', message: 'not a Gatehouse error' }],
    })
  })

  it('no answer at all is a network error', async () => {
    const { url, server } = await listen((response) => response.end())
    await new Promise((resolve) => server.close(resolve))
    servers = []
    const client = createAuthClient({ baseURL: url, fetch: (input, init) => fetch(input, init) })
    expect((await client.getSession()).error).toEqual({ status: 0, code: 'NETWORK_ERROR', message: 'Network request failed' })
  })

  it('an aborted call resolves to an abort error', async () => {
    const { url } = await listen((response) => response.end('null'))
    const client = createAuthClient({ baseURL: url, fetch: (input, init) => fetch(input, init) })
    const controller = new AbortController()
    controller.abort()
    expect((await client.getSession(undefined, { signal: controller.signal })).error).toEqual({
      status: 0,
      code: 'REQUEST_ABORTED',
      message: 'Request aborted',
    })
  })
})

describe('plugins', () => {
  const route = { endpoint: 'ok', method: 'GET', path: '/ok', output: z.looseObject({ ok: z.literal(true) }) } as const

  it('refuses a plugin registered twice and names that clash', () => {
    const health = { id: 'health', routes: { health: route } }
    expect(() => createAuthClient({ baseURL: BASE, plugins: [health, health] })).toThrow('Client plugin "health" is registered twice')
    expect(() => createAuthClient({ baseURL: BASE, plugins: [{ id: 'clash', routes: { signOut: route } }] })).toThrow(
      'Client name "signOut" of plugin "clash" is already taken',
    )
    expect(() =>
      createAuthClient({ baseURL: BASE, plugins: [{ id: 'clash', routes: {}, stores: { session: { route, sessionKey: () => 'x' } } }] }),
    ).toThrow('Store "session" of plugin "clash" is already taken')
  })

  it('mounts plugin routes next to core’s', async () => {
    const context = setup()
    const client = createAuthClient({ baseURL: BASE, fetch: context.browser.fetch, plugins: [{ id: 'health', routes: { health: route } }] })
    expect(await client.health()).toEqual({ data: { ok: true }, error: null })
  })
})
