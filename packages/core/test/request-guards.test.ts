import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { definePlugin } from '../src/plugins/types.js'
import { request, testAuth } from './helpers.js'

const go = defineEndpoint({
  method: 'POST',
  path: '/go',
  body: z.object({
    callbackURL: z.string().optional(),
    redirectTo: z.string().optional(),
    errorCallbackURL: z.string().optional(),
    newUserCallbackURL: z.string().optional(),
  }),
  handler: () => ({ status: true }),
})

const look = defineEndpoint({
  method: 'GET',
  path: '/look',
  query: z.object({ callbackURL: z.string().optional() }),
  handler: () => ({ status: true }),
})

const plugin = definePlugin({ id: 'guards', endpoints: { go, look } })

describe('origin check (POST carrying cookies)', () => {
  const auth = testAuth({
    plugins: [plugin],
    trustedOrigins: ['https://app.test', 'https://*.tenant.test'],
    rateLimit: { enabled: false },
  })
  const post = (headers: Record<string, string>) =>
    auth.handler(request('/api/auth/go', { json: {}, headers }))

  it('lets a cookie-less POST through without an Origin', async () => {
    expect((await post({})).status).toBe(200)
  })

  it('accepts the base URL origin and trusted origins', async () => {
    expect((await post({ cookie: 'a=b', origin: 'http://localhost:3000' })).status).toBe(200)
    expect((await post({ cookie: 'a=b', origin: 'https://app.test' })).status).toBe(200)
    expect((await post({ cookie: 'a=b', origin: 'https://eu.tenant.test' })).status).toBe(200)
  })

  it('falls back to the Referer origin', async () => {
    expect((await post({ cookie: 'a=b', referer: 'https://app.test/page?x=1' })).status).toBe(200)
    expect((await post({ cookie: 'a=b', referer: 'https://evil.test/https://app.test' })).status).toBe(403)
  })

  it.each([
    'https://evil.test',
    'https://app.test.evil.test',
    'https://tenant.test',
    'http://app.test',
    'null',
  ])('refuses origin %s with 403', async (origin) => {
    const response = await post({ cookie: 'a=b', origin })
    expect(response.status).toBe(403)
    expect(['INVALID_ORIGIN', 'MISSING_ORIGIN']).toContain((await response.json()).code)
  })

  it('refuses a cookie-bearing POST with neither Origin nor Referer', async () => {
    const response = await post({ cookie: 'a=b' })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ code: 'MISSING_ORIGIN', message: 'Missing or null Origin' })
  })

  it('does not check GET requests, and server-side api calls skip it', async () => {
    expect((await auth.handler(request('/api/auth/look', { headers: { cookie: 'a=b', origin: 'https://evil.test' } }))).status).toBe(200)
    await expect(auth.api.go({ body: {}, headers: { cookie: 'a=b', origin: 'https://evil.test' } })).resolves.toEqual({ status: true })
  })
})

describe('redirect targets (relative path or trusted origin)', () => {
  const auth = testAuth({ plugins: [plugin], trustedOrigins: ['https://app.test'], rateLimit: { enabled: false } })
  const send = (body: Record<string, string>) => auth.handler(request('/api/auth/go', { json: body }))

  it.each([
    ['callbackURL', 'Invalid callbackURL'],
    ['redirectTo', 'Invalid redirectURL'],
    ['errorCallbackURL', 'Invalid errorCallbackURL'],
    ['newUserCallbackURL', 'Invalid newUserCallbackURL'],
  ])('%s to an untrusted origin is 403 "%s"', async (field, message) => {
    const response = await send({ [field]: 'https://evil.test/landing' })
    expect(response.status).toBe(403)
    expect((await response.json()).message).toBe(message)
  })

  it.each(['/dashboard', '/a/b?c=d#e', 'https://app.test/welcome', 'http://localhost:3000/x'])('accepts %s', async (target) => {
    expect((await send({ callbackURL: target })).status).toBe(200)
  })

  it.each(['//evil.test', '/\\evil.test', '/%2F%2Fevil.test', 'javascript:alert(1)', 'https://app.test@evil.test', 'evil.test'])(
    'refuses %s',
    async (target) => {
      expect((await send({ callbackURL: target })).status).toBe(403)
    },
  )

  it('checks query parameters too, and server-side calls as well', async () => {
    const response = await auth.handler(request('/api/auth/look?callbackURL=https%3A%2F%2Fevil.test'))
    expect(response.status).toBe(403)
    await expect(auth.api.go({ body: { callbackURL: '//evil.test' } })).rejects.toMatchObject({ status: 403, message: 'Invalid callbackURL' })
  })
})
