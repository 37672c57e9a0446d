/**
 * Login CSRF (docs/security.md#login-csrf). A cross-site form POST carries
 * no SameSite=Lax cookie, so an origin check that only looked at
 * cookie-bearing requests let another site sign the victim's browser into
 * the attacker's account. The check now runs on every state-changing request
 * of an endpoint that is neither `cors` nor `skipOriginCheck`, cookies or not.
 *
 * GET /verify-email with auto sign-in never replaces the session of another
 * user: it answers a confirmation page, whose POST completes the sign-in.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { definePlugin } from '../src/plugins/types.js'
import { signEmailToken } from '../src/verification/email-token.js'
import { accountAuth, authed, cookieHeader, PASSWORD, signUp } from './accounts.js'
import { BASE, request } from './helpers.js'

type Auth = ReturnType<typeof accountAuth>

const EVIL = 'https://evil.example'

async function rows(auth: Auth, model: string) {
  return (await auth.$context).adapter.findMany({ model })
}

/** A form post as a browser sends it from a page's `<form method=POST>`: urlencoded, no JSON, no preflight. */
function formPost(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return request(path, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  })
}

const signInForm = { email: 'attacker@evil.example', password: PASSWORD }

/** The attacker's account exists; nobody is signed in on the server. */
async function withAttacker(options: Parameters<typeof accountAuth>[0] = {}) {
  const auth = accountAuth(options)
  await signUp(auth, { email: signInForm.email })
  const sessionsBefore = (await rows(auth, 'session')).length
  return { auth, sessionsBefore }
}

describe('origin check without cookies (login CSRF)', () => {
  it('a cross-site form POST to /sign-in/email is refused: 403, no Set-Cookie, no session', async () => {
    const { auth, sessionsBefore } = await withAttacker()
    const response = await auth.handler(formPost('/api/auth/sign-in/email', signInForm, { origin: EVIL, 'sec-fetch-site': 'cross-site' }))
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ code: 'INVALID_ORIGIN', message: 'Invalid origin' })
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)
  })

  it('a cross-site form POST to /sign-up/email is refused: 403, no Set-Cookie, no user, no session', async () => {
    const auth = accountAuth()
    const response = await auth.handler(
      formPost('/api/auth/sign-up/email', { name: 'Planted', email: 'victim@example.com', password: PASSWORD }, { origin: EVIL }),
    )
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ code: 'INVALID_ORIGIN', message: 'Invalid origin' })
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'user')).toHaveLength(0)
    expect(await rows(auth, 'account')).toHaveLength(0)
    expect(await rows(auth, 'session')).toHaveLength(0)
  })

  it('without Origin, Sec-Fetch-Site: cross-site is refused', async () => {
    const { auth, sessionsBefore } = await withAttacker()
    const response = await auth.handler(formPost('/api/auth/sign-in/email', signInForm, { 'sec-fetch-site': 'cross-site' }))
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ code: 'MISSING_ORIGIN', message: 'Missing or null Origin' })
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)
  })

  it('Origin: null (a sandboxed frame, a privacy redirect) is refused without cookies too', async () => {
    const { auth, sessionsBefore } = await withAttacker()
    const response = await auth.handler(formPost('/api/auth/sign-in/email', signInForm, { origin: 'null' }))
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ code: 'MISSING_ORIGIN', message: 'Missing or null Origin' })
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)
  })

  it('without Origin, a Referer must be trusted', async () => {
    const { auth, sessionsBefore } = await withAttacker()
    const refused = await auth.handler(formPost('/api/auth/sign-in/email', signInForm, { referer: `${EVIL}/page` }))
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ code: 'INVALID_ORIGIN', message: 'Invalid origin' })
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)

    const accepted = await auth.handler(formPost('/api/auth/sign-in/email', signInForm, { referer: `${BASE}/login` }))
    expect(accepted.status).toBe(200)
  })

  it("a trusted Origin without cookies signs in (the app's own sign-in form)", async () => {
    const { auth, sessionsBefore } = await withAttacker({ trustedOrigins: ['https://app.example'] })
    for (const origin of [BASE, 'https://app.example']) {
      const response = await auth.handler(formPost('/api/auth/sign-in/email', signInForm, { origin, 'sec-fetch-site': 'cross-site' }))
      expect(response.status).toBe(200)
      expect(response.headers.getSetCookie().some((line) => line.startsWith('gatehouse.session_token='))).toBe(true)
    }
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore + 2)
  })

  it('neither Origin, Referer nor cookie (a server, curl) still signs in and signs up', async () => {
    const { auth } = await withAttacker()
    const signIn = await auth.handler(request('/api/auth/sign-in/email', { json: signInForm }))
    expect(signIn.status).toBe(200)
    const sameSite = await auth.handler(formPost('/api/auth/sign-in/email', signInForm, { 'sec-fetch-site': 'same-origin' }))
    expect(sameSite.status).toBe(200)
    const signUpCall = await auth.handler(request('/api/auth/sign-up/email', { json: { name: 'B', email: 'b@example.com', password: PASSWORD } }))
    expect(signUpCall.status).toBe(200)
  })

  it('the link binding cookie alone does not make a request cookie-bearing: a client keeping it after sign-up still signs in', async () => {
    const auth = accountAuth({ emailVerification: { sendOnSignUp: true } })
    const signedUp = await auth.handler(
      request('/api/auth/sign-up/email', { json: { name: 'Ada', email: 'ada@example.com', password: PASSWORD }, headers: { origin: BASE } }),
    )
    const binding = cookieHeader(signedUp)
      .split('; ')
      .filter((pair) => pair.startsWith('gatehouse.link_binding='))
      .join('; ')
    expect(binding).not.toBe('')
    const response = await auth.handler(request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: PASSWORD }, headers: { cookie: binding } }))
    expect(response.status).toBe(200)
    // Any other cookie beside it still needs an origin.
    const withSession = await auth.handler(
      request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: PASSWORD }, headers: { cookie: `${binding}; other=1` } }),
    )
    expect(withSession.status).toBe(403)
  })

  it('still refuses a cookie-bearing POST with neither Origin nor Referer', async () => {
    const { auth } = await withAttacker()
    const response = await auth.handler(request('/api/auth/sign-in/email', { json: signInForm, headers: { cookie: 'a=b' } }))
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ code: 'MISSING_ORIGIN', message: 'Missing or null Origin' })
  })

  it('refuses before the rate limiter and the body: refused posts use no budget and are not parsed', async () => {
    const { auth } = await withAttacker({ rateLimit: { enabled: true } })
    const from = { 'x-forwarded-for': '203.0.113.9' }
    for (let i = 0; i < 5; i++) {
      const refused = await auth.handler(
        request('/api/auth/sign-in/email', { method: 'POST', body: '{not json', headers: { ...from, origin: EVIL, 'content-type': 'application/json' } }),
      )
      expect(refused.status).toBe(403)
    }
    // Sign-in allows 3 requests per 10 s and client: none of them was spent.
    const allowed = await auth.handler(request('/api/auth/sign-in/email', { json: signInForm, headers: { ...from, origin: BASE } }))
    expect(allowed.status).toBe(200)
  })

  it('advanced.disableOriginCheck turns it off', async () => {
    const { auth } = await withAttacker({ advanced: { disableOriginCheck: true } })
    const response = await auth.handler(formPost('/api/auth/sign-in/email', signInForm, { origin: EVIL }))
    expect(response.status).toBe(200)
  })

  it('GET requests and server-side api calls are not checked', async () => {
    const { auth } = await withAttacker()
    expect((await auth.handler(request('/api/auth/ok', { headers: { origin: EVIL, 'sec-fetch-site': 'cross-site' } }))).status).toBe(200)
    const answer = await auth.api.signInEmail({ body: signInForm, headers: { origin: EVIL } })
    expect(answer).toMatchObject({ user: { email: signInForm.email } })
  })
})

describe('endpoints made for cross-origin callers stay open', () => {
  const bearer = defineEndpoint({ method: 'POST', path: '/bearer-only', metadata: { cors: true }, handler: () => ({ ok: true }) })
  const hook = defineEndpoint({
    method: 'POST',
    path: '/hook',
    body: z.object({ event: z.string() }),
    metadata: { skipOriginCheck: true },
    handler: () => ({ ok: true }),
  })
  const plugin = definePlugin({ id: 'cross-origin', endpoints: { bearer, hook } })

  it("the provider's form_post callback is accepted cross-site (bound by its state, checked on the GET it leads to)", async () => {
    const auth = accountAuth()
    const response = await auth.handler(formPost('/api/auth/callback/apple', { code: 'c', state: 's' }, { origin: 'https://appleid.apple.com', 'sec-fetch-site': 'cross-site' }))
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(`${BASE}/api/auth/callback/apple?code=c&state=s`)
  })

  it('`cors` and `skipOriginCheck` endpoints accept any origin', async () => {
    const auth = accountAuth({ plugins: [plugin] })
    expect((await auth.handler(request('/api/auth/bearer-only', { json: {}, headers: { origin: EVIL } }))).status).toBe(200)
    expect((await auth.handler(request('/api/auth/hook', { json: { event: 'x' }, headers: { origin: EVIL, 'sec-fetch-site': 'cross-site' } }))).status).toBe(200)
  })
})

describe("GET /verify-email with autoSignInAfterVerification: never into another user's place", () => {
  async function setup() {
    const auth = accountAuth({ emailVerification: { autoSignInAfterVerification: true } })
    // The victim is signed in; the attacker signed up and holds the link to their own unverified account.
    const victim = await signUp(auth, { email: 'victim@example.com' })
    await signUp(auth, { email: 'attacker@evil.example' })
    const token = await signEmailToken(await auth.$context, { email: 'attacker@evil.example' }, 3600)
    return { auth, victim, token, sessionsBefore: (await rows(auth, 'session')).length }
  }
  const open = (auth: Auth, token: string, cookie: string, callbackURL?: string) => {
    const query = new URLSearchParams({ token, ...(callbackURL ? { callbackURL } : {}) })
    return auth.handler(request(`/api/auth/verify-email?${query}`, { headers: { cookie } }))
  }
  const sessionUser = async (auth: Auth, cookie: string) => (await (await auth.handler(authed('/api/auth/get-session', cookie))).json())?.user?.email

  it('answers a confirmation page: the victim stays signed in, no session is made', async () => {
    const { auth, victim, token, sessionsBefore } = await setup()
    const response = await open(auth, token, victim.cookie, '/welcome')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(response.headers.get('referrer-policy')).toBe('strict-origin')
    const html = await response.text()
    expect(html).toContain(`<form method="post" action="${BASE}/api/auth/verify-email">`)
    expect(html).toContain(`<input type="hidden" name="token" value="${token}">`)
    expect(html).toContain('<input type="hidden" name="callbackURL" value="/welcome">')
    expect(html).toContain('Continue as attacker@evil.example</button>')
    expect(html).toContain('<a href="/welcome">Cancel</a>')
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)
    expect(await sessionUser(auth, victim.cookie)).toBe('victim@example.com')
    // The address itself is verified: the link proved the mailbox.
    const users = await rows(auth, 'user')
    expect(users.find((user) => user.email === 'attacker@evil.example')?.emailVerified).toBe(true)
  })

  it('the page\'s POST completes the sign-in once, replacing the session', async () => {
    const { auth, victim, token, sessionsBefore } = await setup()
    await open(auth, token, victim.cookie, '/welcome')
    const confirm = () =>
      auth.handler(formPost('/api/auth/verify-email', { token, callbackURL: '/welcome' }, { origin: BASE, cookie: victim.cookie }))
    const response = await confirm()
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/welcome')
    const cookie = cookieHeader(response, victim.cookie)
    expect(await sessionUser(auth, cookie)).toBe('attacker@evil.example')
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore + 1)

    // The link owed one sign-in: a second post signs nobody in.
    const again = await confirm()
    expect(again.status).toBe(303)
    expect(again.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore + 1)
  })

  it('the same POST from another site is refused by the origin check', async () => {
    const { auth, victim, token, sessionsBefore } = await setup()
    await open(auth, token, victim.cookie, '/welcome')
    const response = await auth.handler(formPost('/api/auth/verify-email', { token, callbackURL: '/welcome' }, { origin: EVIL }))
    expect(response.status).toBe(403)
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)
  })

  it('without a callbackURL (a script) the answer stays JSON and the session is not switched; a POST switches', async () => {
    const { auth, victim, token, sessionsBefore } = await setup()
    const response = await open(auth, token, victim.cookie)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: true, user: { email: 'attacker@evil.example', emailVerified: true } })
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)

    const posted = await auth.handler(authed('/api/auth/verify-email', victim.cookie, { json: { token } }))
    expect(posted.status).toBe(200)
    expect(await posted.json()).toMatchObject({ status: true, user: { email: 'attacker@evil.example' } })
    expect(await sessionUser(auth, cookieHeader(posted, victim.cookie))).toBe('attacker@evil.example')
  })

  it('a browser with no session is signed in as before', async () => {
    const { auth, token, sessionsBefore } = await setup()
    const fresh = await open(auth, token, '', '/welcome')
    expect(fresh.status).toBe(302)
    expect(fresh.headers.get('location')).toBe('/welcome')
    expect(await sessionUser(auth, cookieHeader(fresh))).toBe('attacker@evil.example')
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore + 1)
  })

  it("a browser signed in as the link's own user is kept, with no second session", async () => {
    const auth = accountAuth({ emailVerification: { autoSignInAfterVerification: true } })
    const own = await signUp(auth, { email: 'ada@example.com' })
    const token = await signEmailToken(await auth.$context, { email: 'ada@example.com' }, 3600)
    const response = await open(auth, token, own.cookie, '/welcome')
    expect(response.status).toBe(302)
    expect(await rows(auth, 'session')).toHaveLength(1)
    expect(await sessionUser(auth, cookieHeader(response, own.cookie))).toBe('ada@example.com')
  })

  it('a session revoked elsewhere does not count: the cookie cache is not asked', async () => {
    const auth = accountAuth({ emailVerification: { autoSignInAfterVerification: true }, session: { cookieCache: { enabled: true } } })
    const victim = await signUp(auth, { email: 'victim@example.com' })
    await signUp(auth, { email: 'attacker@evil.example' })
    await auth.handler(authed('/api/auth/revoke-sessions', victim.cookie, { method: 'POST' }))
    const token = await signEmailToken(await auth.$context, { email: 'attacker@evil.example' }, 3600)
    const response = await open(auth, token, victim.cookie, '/welcome')
    expect(response.status).toBe(302)
  })
})

describe('GET /verify-email with autoSignInAfterVerification in a signed-out browser that did not ask for the link', () => {
  /** A top-level navigation of a current browser: what an attacker's page or a mail client causes. */
  const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'cross-site', accept: 'text/html,application/xhtml+xml' }

  async function attackerLink() {
    const auth = accountAuth({ emailVerification: { autoSignInAfterVerification: true, sendOnSignUp: true } })
    // The attacker signs up in their own browser and takes the link from their own mailbox.
    const attacker = await signUp(auth, { email: 'attacker@evil.example' })
    const url = new URL(auth.mailbox.last('verify-email')?.url ?? '')
    return { auth, attacker, path: `${url.pathname}${url.search}`, sessionsBefore: (await rows(auth, 'session')).length }
  }

  it('answers "Sign in?" instead of signing in: no Set-Cookie, no session', async () => {
    const { auth, path, sessionsBefore } = await attackerLink()
    const response = await auth.handler(request(path, { headers: NAVIGATION }))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await response.text()
    expect(html).toContain('Sign in?')
    expect(html).toContain('Continue as attacker@evil.example</button>')
    expect(html).toContain(`<form method="post" action="${BASE}/api/auth/verify-email">`)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)
    // The address is verified all the same: the link proved the mailbox.
    expect((await rows(auth, 'user')).find((user) => user.email === 'attacker@evil.example')?.emailVerified).toBe(true)
  })

  it('an older browser without Fetch Metadata is recognised by its Accept header', async () => {
    const { auth, path, sessionsBefore } = await attackerLink()
    const response = await auth.handler(request(path, { headers: { accept: 'text/html' } }))
    expect(response.status).toBe(200)
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore)
  })

  it("the page's POST signs in, once", async () => {
    const { auth, path, sessionsBefore } = await attackerLink()
    await auth.handler(request(path, { headers: NAVIGATION }))
    const query = new URL(path, BASE).searchParams
    const fields = { token: query.get('token') ?? '', callbackURL: query.get('callbackURL') ?? '/' }
    const confirmed = await auth.handler(formPost('/api/auth/verify-email', fields, { origin: BASE }))
    expect(confirmed.status).toBe(303)
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore + 1)
  })

  it('the browser that signed up (holding its link binding) is signed in at once', async () => {
    const { auth, attacker, path, sessionsBefore } = await attackerLink()
    const binding = attacker.cookie.split('; ').filter((pair) => pair.includes('link_binding')).join('; ')
    expect(binding).not.toBe('')
    const response = await auth.handler(request(path, { headers: { ...NAVIGATION, cookie: binding } }))
    expect(response.status).toBe(302)
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore + 1)
  })

  it("a binding for another address does not count", async () => {
    const auth = accountAuth({ emailVerification: { autoSignInAfterVerification: true, sendOnSignUp: true } })
    const visitor = await signUp(auth, { email: 'visitor@example.com' })
    await signUp(auth, { email: 'attacker@evil.example' })
    const url = new URL(auth.mailbox.last('verify-email')?.url ?? '')
    const binding = visitor.cookie.split('; ').filter((pair) => pair.includes('link_binding')).join('; ')
    const response = await auth.handler(request(`${url.pathname}${url.search}`, { headers: { ...NAVIGATION, cookie: binding } }))
    expect(response.status).toBe(200)
    expect(response.headers.getSetCookie().some((line) => line.includes('session_token=') && !/max-age=0/i.test(line))).toBe(false)
  })

  it('a client that is not a browser navigating (fetch, curl) keeps the direct answer', async () => {
    const { auth, path, sessionsBefore } = await attackerLink()
    const response = await auth.handler(request(path, { headers: { 'sec-fetch-mode': 'cors', accept: '*/*' } }))
    expect(response.status).toBe(302)
    expect(await rows(auth, 'session')).toHaveLength(sessionsBefore + 1)
  })
})
