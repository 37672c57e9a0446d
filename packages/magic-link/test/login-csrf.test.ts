/**
 * Login CSRF and magic links (docs/security.md#login-csrf): the send route
 * refuses a cross-site form post whether or not it carries cookies, and the
 * link never silently replaces the session of another user: it answers a
 * confirmation page and leaves the token unused, and the page's POST
 * consumes it and signs in.
 */
import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { request } from '../../core/test/helpers.js'
import { BASE, cookieHeader, getSession, linkAuth, linkParams, openLink, requestLink, type LinkAuth } from './fixtures.js'

const EVIL = 'https://evil.example'

async function rows(auth: LinkAuth, model: string) {
  const { db } = await auth.$context
  return db.findMany<Record<string, unknown>>({ model })
}

const linkRows = async (auth: LinkAuth) =>
  (await rows(auth, 'verification')).filter((row) => String(row.identifier).startsWith('magic-link:'))

/** The confirmation form's fields as a browser posts them, from the page's own origin. */
function confirm(auth: LinkAuth, fields: Record<string, string>, headers: Record<string, string>) {
  return auth.handler(
    request('/api/auth/magic-link/verify', {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    }),
  )
}

/** The victim is signed in; the attacker requested a link to their own account (or a new one) and holds it. */
async function setup(attackerEmail = 'attacker@evil.example', existing = true) {
  const auth = linkAuth()
  const victim = await signUp(auth, { email: 'victim@example.com' })
  if (existing) await signUp(auth, { email: attackerEmail })
  await requestLink(auth, { email: attackerEmail, callbackURL: '/dashboard', newUserCallbackURL: '/welcome', errorCallbackURL: '/oops' })
  const link = auth.lastLink()!
  return { auth, victim, link, sessionsBefore: (await rows(auth, 'session')).length }
}

describe('POST /sign-in/magic-link: origin check without cookies', () => {
  it('a cross-site form post is refused: 403, no token stored, no mail', async () => {
    const auth = linkAuth()
    const response = await auth.handler(
      request('/api/auth/sign-in/magic-link', {
        method: 'POST',
        body: new URLSearchParams({ email: 'victim@example.com' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: EVIL },
      }),
    )
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ code: 'INVALID_ORIGIN', message: 'Invalid origin' })
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await linkRows(auth)).toEqual([])
    expect(auth.links).toEqual([])
  })
})

describe('GET /magic-link/verify in a browser signed in as someone else', () => {
  it('answers a confirmation page; the session, the cookie and the token are untouched', async () => {
    const { auth, victim, link, sessionsBefore } = await setup()
    const opened = await openLink(auth, link.url, victim.cookie)
    expect(opened.status).toBe(200)
    expect(opened.response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(opened.response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(opened.setCookies).toEqual([])
    const html = await opened.response.text()
    expect(html).toContain(`<form method="post" action="${BASE}/api/auth/magic-link/verify">`)
    expect(html).toContain(`<input type="hidden" name="token" value="${link.token}">`)
    expect(html).toContain('<input type="hidden" name="newUserCallbackURL" value="/welcome">')
    expect(html).toContain('<input type="hidden" name="errorCallbackURL" value="/oops">')
    expect(html).toContain('Continue as attacker@evil.example</button>')
    expect(html).toContain('<a href="/dashboard">Cancel</a>')

    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)
    expect((await getSession(auth, victim.cookie)).user.email).toBe('victim@example.com')
    // Not consumed: the link is single use, and the POST is the use.
    expect(await linkRows(auth)).toHaveLength(1)
    const users = await rows(auth, 'user')
    expect(users.find((user) => user.email === 'attacker@evil.example')?.emailVerified).toBe(false)
  })

  it("the page's POST consumes the token and signs in, replacing the session", async () => {
    const { auth, victim, link } = await setup()
    const fields = Object.fromEntries(linkParams(link.url))
    const response = await confirm(auth, fields, { origin: BASE, cookie: victim.cookie })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/dashboard')
    const cookie = cookieHeader(response)
    expect((await getSession(auth, cookie)).user).toMatchObject({ email: 'attacker@evil.example', emailVerified: true })
    expect(await linkRows(auth)).toEqual([])

    const again = await confirm(auth, fields, { origin: BASE, cookie: victim.cookie })
    expect(again.status).toBe(303)
    expect(again.headers.get('location')).toBe('/oops?error=invalid_token')
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it('a new user: the page too, and the POST creates the user and goes to the newUserCallbackURL', async () => {
    const { auth, victim, link, sessionsBefore } = await setup('new@example.com', false)
    const opened = await openLink(auth, link.url, victim.cookie)
    expect(opened.status).toBe(200)
    expect((await rows(auth, 'user')).map((user) => user.email)).toEqual(['victim@example.com'])
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)

    const response = await confirm(auth, Object.fromEntries(linkParams(link.url)), { origin: BASE, cookie: victim.cookie })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/welcome')
    expect((await getSession(auth, cookieHeader(response))).user.email).toBe('new@example.com')
  })

  it('the same POST from another site is refused and leaves the token unused', async () => {
    const { auth, link, sessionsBefore } = await setup()
    const response = await confirm(auth, Object.fromEntries(linkParams(link.url)), { origin: EVIL })
    expect(response.status).toBe(403)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)
    expect(await linkRows(auth)).toHaveLength(1)
  })

  it("a browser signed in as the link's own user is signed in again without asking", async () => {
    const auth = linkAuth()
    const own = await signUp(auth, { email: 'ada@example.com' })
    await requestLink(auth, { email: 'ada@example.com', callbackURL: '/dashboard' })
    const opened = await openLink(auth, auth.lastLink()!.url, own.cookie)
    expect(opened.status).toBe(302)
    expect(opened.location).toBe('/dashboard')
    expect((await getSession(auth, opened.cookie)).user.email).toBe('ada@example.com')
  })

  it('an unusable link fails as usual, signed in or not', async () => {
    const { auth, victim } = await setup()
    const opened = await openLink(auth, `${BASE}/api/auth/magic-link/verify?token=${'x'.repeat(32)}&callbackURL=/dashboard`, victim.cookie)
    expect(opened.location).toBe('/dashboard?error=invalid_token')
  })
})

describe('GET /magic-link/verify in a signed-out browser that did not ask for the link', () => {
  /** A top-level navigation of a current browser: what an attacker's page causes. */
  const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'cross-site', accept: 'text/html' }

  /** The attacker asks for a link to their own account from their own browser, keeping its cookies. */
  async function attackerLink() {
    const auth = linkAuth()
    await signUp(auth, { email: 'attacker@evil.example' })
    // Verified already, so the link is no first proof of the mailbox that would end the sign-up's session.
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'email', value: 'attacker@evil.example' }, update: { emailVerified: true } })
    const asked = await auth.handler(
      request('/api/auth/sign-in/magic-link', { json: { email: 'attacker@evil.example', callbackURL: '/dashboard' }, headers: { origin: BASE } }),
    )
    expect(asked.status).toBe(200)
    return { auth, link: auth.lastLink()!, binding: cookieHeader(asked), sessionsBefore: (await rows(auth, 'session')).length }
  }
  const open = (auth: LinkAuth, url: string, headers: Record<string, string>) => auth.handler(new Request(url, { headers }))

  it('answers "Sign in?" and leaves the token unused: no Set-Cookie, no session', async () => {
    const { auth, link, sessionsBefore } = await attackerLink()
    const response = await open(auth, link.url, NAVIGATION)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('Sign in?')
    expect(html).toContain('Continue as attacker@evil.example</button>')
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)
    expect(await linkRows(auth)).toHaveLength(1)
  })

  it("the page's POST from the page's origin signs in", async () => {
    const { auth, link, sessionsBefore } = await attackerLink()
    await open(auth, link.url, NAVIGATION)
    const params = linkParams(link.url)
    const posted = await confirm(auth, { token: params.get('token') ?? '', callbackURL: '/dashboard' }, { origin: BASE })
    expect(posted.status).toBe(303)
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore + 1)
  })

  it('the browser that asked (its binding cookie) is signed in at once', async () => {
    const { auth, link, binding, sessionsBefore } = await attackerLink()
    expect(binding).toContain('link_binding')
    const response = await open(auth, link.url, { ...NAVIGATION, cookie: binding })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/dashboard')
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore + 1)
  })

  it('the binding cookie is set whether or not the address has an account (no enumeration)', async () => {
    const auth = linkAuth()
    await signUp(auth, { email: 'known@example.com' })
    const ask = (email: string) =>
      auth.handler(request('/api/auth/sign-in/magic-link', { json: { email }, headers: { origin: BASE } }))
    const names = (response: Response) => response.headers.getSetCookie().map((line) => line.split('=')[0])
    expect(names(await ask('known@example.com'))).toEqual(names(await ask('unknown@example.com')))
  })

  it('a client that is not a browser navigating keeps the direct answer', async () => {
    const { auth, link, sessionsBefore } = await attackerLink()
    const response = await open(auth, link.url, { 'sec-fetch-mode': 'cors', accept: '*/*' })
    expect(response.status).toBe(302)
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore + 1)
  })
})
