import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type { ApiArgs } from './api.js'
import { accountAuth, signUp } from '../../test/accounts.js'
import { toHeaders, toRequest } from '../integrations/node.js'

describe('toHeaders', () => {
  it('reads node:http headers: arrays kept, undefined skipped, several Cookie lines joined as one', () => {
    const headers = toHeaders({
      cookie: ['a=1', 'b=2'],
      'set-cookie': ['x=1; Path=/', 'y=2; Path=/'],
      accept: ['text/html', 'application/json'],
      'x-absent': undefined,
      'user-agent': 'test',
    })
    expect(headers.get('cookie')).toBe('a=1; b=2')
    expect(headers.getSetCookie()).toEqual(['x=1; Path=/', 'y=2; Path=/'])
    expect(headers.get('accept')).toBe('text/html, application/json')
    expect(headers.has('x-absent')).toBe(false)
    expect(headers.get('user-agent')).toBe('test')
  })

  it('takes web Headers, pairs and records as the Headers constructor does', () => {
    expect(toHeaders(new Headers({ Cookie: 'a=1' })).get('cookie')).toBe('a=1')
    expect(toHeaders([['Cookie', 'a=1']]).get('cookie')).toBe('a=1')
    expect(toHeaders({ Cookie: 'a=1' }).get('cookie')).toBe('a=1')
    expect([...toHeaders(undefined)]).toEqual([])
  })
})

describe('auth.api with node:http headers', () => {
  it('takes IncomingHttpHeaders in every call that takes headers (type test, checked by tsc)', () => {
    expectTypeOf<IncomingHttpHeaders>().toMatchTypeOf<NonNullable<ApiArgs<unknown>['headers']>>()
    expectTypeOf<Headers>().toMatchTypeOf<NonNullable<ApiArgs<unknown>['headers']>>()
    expectTypeOf<number>().not.toMatchTypeOf<NonNullable<ApiArgs<unknown>['headers']>>()
  })

  const auth = accountAuth()
  let server: Server
  let base: string
  beforeAll(async () => {
    // The guide's server (docs/getting-started.md#6-from-server-code): node:http, no web Request anywhere.
    server = createServer(async (req, res) => {
      const session =
        req.url === '/me' ? await auth.api.getSession({ headers: req.headers })
        : req.url === '/me-helper' ? await auth.api.getSession({ headers: toHeaders(req.headers) })
        : await auth.api.getSession({ headers: toRequest(req).headers })
      res.writeHead(session ? 200 : 401, { 'content-type': 'application/json' })
      res.end(JSON.stringify(session ? { email: session.user.email } : { code: 'UNAUTHORIZED' }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it.each(['/me', '/me-helper', '/me-request'])('GET %s reads the session from req.headers: 200 with the cookie, 401 without', async (path) => {
    const { cookie } = await signUp(auth, { email: `node${path.replaceAll('/', '-')}@example.com` })
    const signedIn = await fetch(`${base}${path}`, { headers: { cookie: `theme=dark; ${cookie}` } })
    expect(signedIn.status).toBe(200)
    expect(await signedIn.json()).toEqual({ email: `node${path.replaceAll('/', '-')}@example.com` })
    const anonymous = await fetch(`${base}${path}`)
    expect(anonymous.status).toBe(401)
  })
})
