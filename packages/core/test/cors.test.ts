/**
 * `metadata.cors` (docs/endpoints.md#cross-origin-calls): every answer of a
 * marked endpoint, errors and 429 included, is readable from any origin
 * without credentials, and OPTIONS preflights on its path are answered 204
 * with its methods. Unmarked routes send no CORS header and OPTIONS stays 405.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { DatabaseError } from '../src/db/adapter.js'
import { AuthError } from '../src/errors/catalogue.js'
import { CoreErrors } from '../src/errors/core-errors.js'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { definePlugin } from '../src/plugins/types.js'
import { request, testAuth } from './helpers.js'

const bearerThing = defineEndpoint({
  method: ['GET', 'POST'],
  path: '/bearer-thing',
  body: z.object({ fail: z.boolean().optional(), down: z.boolean().optional() }).optional(),
  metadata: { cors: true, skipOriginCheck: true },
  handler: ({ body }) => {
    if (body?.down) throw new DatabaseError('TRANSIENT', 'Database temporarily unavailable')
    if (body?.fail) throw new AuthError(CoreErrors.UNAUTHORIZED, { headers: { 'www-authenticate': 'Bearer' } })
    return { ok: true }
  },
})

const cookieThing = defineEndpoint({
  method: 'POST',
  path: '/cookie-thing',
  handler: () => ({ ok: true }),
})

const plugin = definePlugin({ id: 'cors-test', endpoints: { bearerThing, cookieThing } })

function preflight(path: string, method = 'POST'): Request {
  return request(path, {
    method: 'OPTIONS',
    headers: { origin: 'https://spa.example.org', 'access-control-request-method': method, 'access-control-request-headers': 'authorization' },
  })
}

describe('cors endpoints', () => {
  const auth = testAuth({ plugins: [plugin], rateLimit: { enabled: false } })

  it('answers the preflight with the methods, the allowed headers and no credentials', async () => {
    const response = await auth.handler(preflight('/api/auth/bearer-thing'))
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST')
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type')
    expect(response.headers.get('access-control-max-age')).toBe('600')
    expect(response.headers.get('access-control-allow-credentials')).toBeNull()
    expect(await response.text()).toBe('')
  })

  it('marks success and error answers, exposing WWW-Authenticate', async () => {
    const ok = await auth.handler(request('/api/auth/bearer-thing', { json: {}, headers: { origin: 'https://spa.example.org' } }))
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-allow-origin')).toBe('*')

    const refused = await auth.handler(request('/api/auth/bearer-thing', { json: { fail: true } }))
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe('*')
    expect(refused.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate, Retry-After, X-Retry-After')
    expect(refused.headers.get('www-authenticate')).toBe('Bearer')

    const invalid = await auth.handler(request('/api/auth/bearer-thing', { json: { fail: 'yes' } }))
    expect(invalid.status).toBe(400)
    expect(invalid.headers.get('access-control-allow-origin')).toBe('*')
  })

  it("a transient fault's 503 is readable cross-origin, Retry-After exposed", async () => {
    const down = await auth.handler(request('/api/auth/bearer-thing', { json: { down: true }, headers: { origin: 'https://spa.example.org' } }))
    expect(down.status).toBe(503)
    expect(await down.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    expect(down.headers.get('retry-after')).toBe('3')
    expect(down.headers.get('access-control-allow-origin')).toBe('*')
    expect(down.headers.get('access-control-expose-headers')?.split(', ')).toContain('Retry-After')
  })

  it('leaves other routes alone: no header, and OPTIONS is still 405', async () => {
    const response = await auth.handler(preflight('/api/auth/cookie-thing'))
    expect(response.status).toBe(405)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const ok = await auth.handler(request('/api/auth/cookie-thing', { json: {} }))
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-allow-origin')).toBeNull()
    expect((await auth.handler(preflight('/api/auth/get-session', 'GET'))).status).toBe(405)
    expect((await auth.handler(preflight('/api/auth/no-such-route'))).status).toBe(404)
  })

  it('a rate-limited answer is readable cross-origin too', async () => {
    const limited = testAuth({ plugins: [plugin], rateLimit: { customRules: { '/bearer-thing': { window: 60, max: 1 } } } })
    const send = () => limited.handler(request('/api/auth/bearer-thing', { json: {}, headers: { 'x-forwarded-for': '192.0.2.7' } }))
    expect((await send()).status).toBe(200)
    const refused = await send()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('access-control-allow-origin')).toBe('*')
    expect(refused.headers.get('x-retry-after')).toEqual(expect.any(String))
  })
})
