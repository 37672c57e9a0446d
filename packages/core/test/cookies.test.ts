import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { definePlugin } from '../src/plugins/types.js'
import { accountAuth, PASSWORD } from './accounts.js'
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

  it('on https: the __Host- prefix and Secure, with a configurable prefix', async () => {
    const auth = testAuth({
      baseURL: 'https://app.test',
      plugins: [plugin],
      rateLimit: { enabled: false },
      advanced: { cookiePrefix: 'acme' },
    })
    const { headers } = await auth.api.setCookie({ body: { value: 'abc' }, returnHeaders: true })
    const header = headers.get('set-cookie') ?? ''
    expect(header.startsWith('__Host-acme.session_token=')).toBe(true)
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

/** docs/security.md#cookie-tossing-from-a-sibling-subdomain */
describe('session cookies over https: __Host- unless a Domain shares them', () => {
  const APP = 'https://app.example.com'
  const signUp = (auth: ReturnType<typeof accountAuth>, email: string, rememberMe?: boolean) =>
    auth.handler(
      new Request(`${APP}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { origin: APP, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ada', email, password: PASSWORD, ...(rememberMe === undefined ? {} : { rememberMe }) }),
      }),
    )
  const getSession = async (auth: ReturnType<typeof accountAuth>, cookie: string) =>
    (await auth.handler(new Request(`${APP}/api/auth/get-session`, { headers: { cookie } }))).json() as Promise<{ user: { email: string } } | null>
  const attributes = (line: string) => line.split('; ').slice(1)
  const named = (lines: readonly string[], name: string) => lines.find((line) => line.startsWith(`${name}=`))

  it('sign-up sets session_token, session_data and dont_remember as __Host-: Secure, Path=/, no Domain', async () => {
    const auth = accountAuth({ baseURL: APP, session: { cookieCache: { enabled: true } } })
    const lines = (await signUp(auth, 'ada@example.com')).headers.getSetCookie()
    expect(lines.map((line) => line.slice(0, line.indexOf('=')))).toEqual(['__Host-gatehouse.session_token', '__Host-gatehouse.session_data'])
    for (const line of lines) {
      expect(attributes(line)).toContain('Secure')
      expect(attributes(line)).toContain('Path=/')
      expect(line).not.toMatch(/Domain=/i)
    }
    const browserSession = (await signUp(auth, 'bea@example.com', false)).headers.getSetCookie()
    expect(named(browserSession, '__Host-gatehouse.dont_remember')).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
  })

  it('with crossSubDomainCookies: __Secure- with the Domain, as the siblings are meant to share them', async () => {
    const auth = accountAuth({ baseURL: APP, advanced: { crossSubDomainCookies: { enabled: true, domain: 'example.com' } } })
    const token = named((await signUp(auth, 'ada@example.com')).headers.getSetCookie(), '__Secure-gatehouse.session_token')
    expect(token).toBeDefined()
    expect(attributes(token ?? '')).toEqual(expect.arrayContaining(['Domain=example.com', 'Path=/', 'Secure']))
  })

  it('a session cookie tossed in by a sibling under the old __Secure- name is never read, even listed first', async () => {
    const auth = accountAuth({ baseURL: APP })
    const pair = (response: Response) => (response.headers.getSetCookie()[0] ?? '').split(';')[0] as string
    const victim = pair(await signUp(auth, 'victim@example.com'))
    const attacker = pair(await signUp(auth, 'attacker@example.com'))
    expect(attacker.startsWith('__Host-gatehouse.session_token=')).toBe(true)
    // What a sibling host can set (Domain=example.com) is a __Secure- cookie; the browser sends it before the host's own.
    const tossed = attacker.replace('__Host-', '__Secure-')
    expect((await getSession(auth, `${tossed}; ${victim}`))?.user.email).toBe('victim@example.com')
    // The same holds for a cookie left from before the upgrade: it signs its browser out once (docs/sessions.md#what-is-stored-where).
    expect(await getSession(auth, tossed)).toBeNull()
  })
})
