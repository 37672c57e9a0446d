import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { definePlugin } from '../src/plugins/types.js'
import { testAuth } from './helpers.js'

const setCookie = defineEndpoint({
  method: 'POST',
  path: '/cookie/set',
  body: z.object({ value: z.string() }),
  handler: ({ body, cookies }) => {
    cookies.setSigned('session_token', body.value)
    return { status: true }
  },
})

const readCookie = defineEndpoint({
  method: 'GET',
  path: '/cookie/read',
  handler: ({ cookies }) => ({ value: cookies.getSigned('session_token') }),
})

const plugin = definePlugin({ id: 'cookie-test', endpoints: { setCookie, readCookie } })

function pair(setCookieHeader: string): string {
  return setCookieHeader.split(';')[0] as string
}

describe('signed cookies', () => {
  it('on http: HttpOnly, SameSite=Lax, Path=/, no Secure, no prefix', async () => {
    const auth = testAuth({ plugins: [plugin], rateLimit: { enabled: false } })
    const { headers } = await auth.api.setCookie({ body: { value: 'abc' }, returnHeaders: true })
    const header = headers.get('set-cookie') ?? ''
    expect(header.startsWith('gatehouse.session_token=')).toBe(true)
    expect(header).toMatch(/HttpOnly/)
    expect(header).toMatch(/SameSite=Lax/)
    expect(header).toMatch(/Path=\//)
    expect(header).not.toMatch(/Secure/)
    const read = await auth.api.readCookie({ headers: { cookie: pair(header) } })
    expect(read).toEqual({ value: 'abc' })
  })

  it('on https: the __Secure- prefix and Secure, with a configurable prefix', async () => {
    const auth = testAuth({
      baseURL: 'https://app.test',
      plugins: [plugin],
      rateLimit: { enabled: false },
      advanced: { cookiePrefix: 'acme' },
    })
    const { headers } = await auth.api.setCookie({ body: { value: 'abc' }, returnHeaders: true })
    const header = headers.get('set-cookie') ?? ''
    expect(header.startsWith('__Secure-acme.session_token=')).toBe(true)
    expect(header).toMatch(/; Secure/)
  })

  it('a tampered value or signature reads as absent', async () => {
    const auth = testAuth({ plugins: [plugin], rateLimit: { enabled: false } })
    const { headers } = await auth.api.setCookie({ body: { value: 'user-1' }, returnHeaders: true })
    const [name, value] = pair(headers.get('set-cookie') ?? '').split('=') as [string, string]
    const decoded = decodeURIComponent(value)
    const forged = decoded.replace('user-1', 'user-2')
    expect(await auth.api.readCookie({ headers: { cookie: `${name}=${encodeURIComponent(forged)}` } })).toEqual({ value: null })
    expect(await auth.api.readCookie({ headers: { cookie: `${name}=user-1` } })).toEqual({ value: null })
  })

  it('rotation: a cookie signed by the old secret verifies after a new one is prepended, not after removal', async () => {
    const old = 'old-secret-0123456789-abcdefghijklmnopq'
    const next = 'new-secret-0123456789-abcdefghijklmnopq'
    const before = testAuth({ secret: old, plugins: [plugin], rateLimit: { enabled: false } })
    const { headers } = await before.api.setCookie({ body: { value: 'kept' }, returnHeaders: true })
    const cookie = pair(headers.get('set-cookie') ?? '')

    const rotated = testAuth({ secret: [next, old], plugins: [plugin], rateLimit: { enabled: false } })
    expect(await rotated.api.readCookie({ headers: { cookie } })).toEqual({ value: 'kept' })
    const resigned = await rotated.api.setCookie({ body: { value: 'fresh' }, returnHeaders: true })
    const fresh = pair(resigned.headers.get('set-cookie') ?? '')

    const retired = testAuth({ secret: next, plugins: [plugin], rateLimit: { enabled: false } })
    expect(await retired.api.readCookie({ headers: { cookie } })).toEqual({ value: null })
    expect(await retired.api.readCookie({ headers: { cookie: fresh } })).toEqual({ value: 'fresh' })
  })
})
