// @vitest-environment jsdom
/**
 * The client half in a DOM: the Set-Cookie lines of a real sign-up, handed
 * to `document.cookie` as a browser would take them, leave the method
 * readable by the page (and the HttpOnly session token not);
 * `client.lastLoginMethod.*` read, compare and clear it.
 */
import { createAuthClient } from '@gatehouse/react'
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest'
import { BASE } from '../../core/test/helpers.js'
import { browser } from '../../react/test/browser.js'
import { lastLoginMethodClient } from '../src/client.js'
import { COOKIE, methodAuth, post, PASSWORD } from './fixtures.js'

function clearAllCookies() {
  for (const pair of document.cookie.split('; ').filter(Boolean)) {
    document.cookie = `${pair.split('=')[0]}=; Max-Age=0; Path=/`
  }
}

afterEach(clearAllCookies)

describe('client.lastLoginMethod', () => {
  it("reads what the server's answer left in document.cookie; the session token stays out of the page's reach", async () => {
    const auth = methodAuth()
    const answer = await post(auth, '/sign-up/email', { email: 'ada@example.com', name: 'Ada', password: PASSWORD })
    expect(answer.status).toBe(200)
    for (const line of answer.setCookies) document.cookie = line
    expect(document.cookie).toBe(`${COOKIE}=email`)

    const client = createAuthClient({ baseURL: BASE, plugins: [lastLoginMethodClient()] })
    expect(client.lastLoginMethod.getLastUsedLoginMethod()).toBe('email')
    expect(client.lastLoginMethod.isLastUsedLoginMethod('email')).toBe(true)
    expect(client.lastLoginMethod.isLastUsedLoginMethod('passkey')).toBe(false)
    client.lastLoginMethod.clearLastUsedLoginMethod()
    expect(document.cookie).toBe('')
    expect(client.lastLoginMethod.getLastUsedLoginMethod()).toBeNull()
    expect(client.lastLoginMethod.isLastUsedLoginMethod('email')).toBe(false)
  })

  it('sits beside the route calls, which keep working', async () => {
    const auth = methodAuth()
    const tab = browser(auth)
    const client = createAuthClient<typeof auth>({ baseURL: BASE, fetch: tab.fetch, plugins: [lastLoginMethodClient()] })
    const { error } = await client.signUp.email({ email: 'grace@example.com', name: 'Grace', password: PASSWORD })
    expect(error).toBeNull()
    expect(tab.cookies.get(COOKIE)).toBe('email')
    expect(client.lastLoginMethod.getLastUsedLoginMethod()).toBeNull()
    document.cookie = `${COOKIE}=${tab.cookies.get(COOKIE)}; Path=/`
    expect(client.lastLoginMethod.getLastUsedLoginMethod()).toBe('email')
  })

  it('reads the cookie name given, and the leading default otherwise', () => {
    document.cookie = `${COOKIE}=github; Path=/`
    document.cookie = 'app.last_method=passkey; Path=/'
    const named = createAuthClient({ baseURL: BASE, plugins: [lastLoginMethodClient({ cookieName: 'app.last_method' })] })
    expect(named.lastLoginMethod.getLastUsedLoginMethod()).toBe('passkey')
    named.lastLoginMethod.clearLastUsedLoginMethod()
    expect(document.cookie).toBe(`${COOKIE}=github`)
    const plain = createAuthClient({ baseURL: BASE, plugins: [lastLoginMethodClient()] })
    expect(plain.lastLoginMethod.getLastUsedLoginMethod()).toBe('github')
  })

  it('answers null for a value that is no method (planted by another site on the domain, say)', () => {
    const client = createAuthClient({ baseURL: BASE, plugins: [lastLoginMethodClient()] })
    for (const planted of ['%3Cimg%20src%3Dx%3E', 'Email', 'a.b']) {
      document.cookie = `${COOKIE}=${planted}; Path=/`
      expect(client.lastLoginMethod.getLastUsedLoginMethod(), planted).toBeNull()
    }
  })

  it('is typed: a string or null, a boolean, nothing', () => {
    const client = createAuthClient({ baseURL: BASE, plugins: [lastLoginMethodClient()] })
    expectTypeOf(client.lastLoginMethod.getLastUsedLoginMethod).returns.toEqualTypeOf<string | null>()
    expectTypeOf(client.lastLoginMethod.isLastUsedLoginMethod).parameters.toEqualTypeOf<[method: string]>()
    expectTypeOf(client.lastLoginMethod.clearLastUsedLoginMethod).returns.toEqualTypeOf<void>()
  })
})
