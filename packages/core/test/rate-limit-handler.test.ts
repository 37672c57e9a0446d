import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { definePlugin } from '../src/plugins/types.js'
import { request, testAuth } from './helpers.js'

const signInLike = defineEndpoint({
  method: 'POST',
  path: '/sign-in/thing',
  body: z.object({}).loose(),
  handler: () => ({ status: true }),
})

const plugin = definePlugin({ id: 'limited', endpoints: { signInLike } })

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

  it('an invalid forwarded address is not used as a key', async () => {
    const auth = testAuth({ plugins: [plugin] })
    const statuses = []
    for (let index = 0; index < 5; index++) statuses.push((await send(auth, `not-an-ip-${index}`)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200])
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
