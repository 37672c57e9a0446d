/**
 * Social sign-in against a real OpenID Provider (oidc-provider on loopback),
 * configured as a generic OpenID Connect provider by its issuer: discovery,
 * code flow with PKCE and nonce, ID Token claims, UserInfo, refresh,
 * form_post, state tampering, ID-token sign-in, encrypted token storage.
 */
import { generateKeyPair, SignJWT, type CryptoKey } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signCookieValue } from '../src/cookies/cookies.js'
import { sharedKey } from '../src/crypto/keys.js'
import { decryptToken } from '../src/social/token-crypto.js'
import { accountAuth, PASSWORD } from './accounts.js'
import { BASE } from './helpers.js'
import { Browser, OIDC_CLIENT, parseFormPost, shiftedClock, startOidcProvider, startSocial } from './social-fixtures.js'

const AUTH = `${BASE}/api/auth`
const ERROR_PAGE = `${AUTH}/error`

let op: Awaited<ReturnType<typeof startOidcProvider>>

beforeAll(async () => {
  op = await startOidcProvider(['oidc', 'oidc-form'])
  op.accounts.set('alice', { email: 'Alice@Example.com', email_verified: true, name: 'Alice Liddell' })
  op.accounts.set('bob', { email: 'bob@example.com', email_verified: true, name: 'Bob' })
})
afterAll(async () => {
  await op.close()
})

function oidcAuth(extra: Parameters<typeof accountAuth>[0] = {}) {
  const clock = shiftedClock()
  const auth = accountAuth({
    clock,
    socialProviders: {
      oidc: { type: 'oidc', issuer: op.issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret },
      'oidc-form': { type: 'oidc', issuer: op.issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, responseMode: 'form_post' },
      github: { clientId: 'gh-client', clientSecret: 'gh-secret' },
    },
    ...extra,
  })
  return Object.assign(auth, { clock })
}

type TestAuth = ReturnType<typeof oidcAuth>

/** Runs a whole sign-in in `browser` as `login`; returns where the browser ended and the callback URL it went through. */
async function signInWith(auth: TestAuth, browser: Browser, login: string, body: Record<string, unknown> = {}) {
  op.login = login
  const start = await startSocial(browser, { provider: 'oidc', callbackURL: '/dashboard', ...body })
  const end = await browser.navigate(start.body.url as string)
  return { start, end, callback: end.visited.find((url) => url.startsWith(`${AUTH}/callback/`)) }
}

async function rows(auth: TestAuth, model: string) {
  return (await auth.$context).adapter.findMany({ model })
}

async function session(browser: Browser) {
  const response = await browser.request(`${AUTH}/get-session`)
  return (await response.json()) as { user: { id: string; email: string; emailVerified: boolean; name: string } } | null
}

describe('the redirect flow', () => {
  it('signs up a new user: authorization URL with state, PKCE S256 and nonce; user and account stored; newUserCallbackURL', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    op.login = 'alice'
    const start = await startSocial(browser, { provider: 'oidc', callbackURL: '/dashboard', newUserCallbackURL: '/welcome' })
    expect(start.response.status).toBe(200)
    expect(start.body.redirect).toBe(true)
    const url = new URL(start.body.url as string)
    expect(url.origin).toBe(op.issuer)
    expect(url.searchParams.get('client_id')).toBe(OIDC_CLIENT.id)
    expect(url.searchParams.get('redirect_uri')).toBe(`${AUTH}/callback/oidc`)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(url.searchParams.get('scope')).toBe('openid profile email')
    // The state is stored hashed, under its purpose prefix, for 10 minutes.
    const [stored] = await rows(auth, 'verification')
    expect(stored?.identifier).toMatch(/^oauth-state:[A-Za-z0-9_-]{43}$/)
    expect(String(stored?.identifier)).not.toContain(url.searchParams.get('state'))
    expect((stored?.expiresAt as Date).getTime() - auth.clock.now().getTime()).toBeGreaterThan(599_000)
    expect(start.response.headers.getSetCookie().join('\n')).toMatch(/gatehouse\.oauth_state=.+Max-Age=600.*HttpOnly.*SameSite=Lax/i)

    const end = await browser.navigate(start.body.url as string)
    expect(end.location).toBe(`${BASE}/welcome`)
    expect((await session(browser))?.user).toMatchObject({ email: 'alice@example.com', emailVerified: true, name: 'Alice Liddell' })
    const [account] = (await rows(auth, 'account')) as Array<Record<string, unknown>>
    expect(account).toMatchObject({ providerId: 'oidc', accountId: 'alice', scope: 'openid,profile,email' })
    expect(await rows(auth, 'verification')).toEqual([])
  })

  it('signs an existing social account in again: same user, tokens replaced, callbackURL (not newUserCallbackURL)', async () => {
    const auth = oidcAuth()
    await signInWith(auth, new Browser(auth), 'alice')
    const [before] = (await rows(auth, 'account')) as Array<Record<string, unknown>>
    const browser = new Browser(auth)
    const { end } = await signInWith(auth, browser, 'alice', { newUserCallbackURL: '/welcome' })
    expect(end.location).toBe(`${BASE}/dashboard`)
    expect(await rows(auth, 'user')).toHaveLength(1)
    const [after] = (await rows(auth, 'account')) as Array<Record<string, unknown>>
    expect(after?.id).toBe(before?.id)
    expect(after?.accessToken).not.toBe(before?.accessToken)
    expect((await session(browser))?.user.email).toBe('alice@example.com')
  })

  it('form_post: the cross-site POST carries no cookie and is sent on as a GET, which does', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    op.login = 'bob'
    const start = await startSocial(browser, { provider: 'oidc-form', callbackURL: '/dashboard' })
    expect(new URL(start.body.url as string).searchParams.get('response_mode')).toBe('form_post')
    const page = await browser.navigate(start.body.url as string)
    expect(page.response.status).toBe(200)
    const form = parseFormPost(await page.response.text())
    expect(form.action).toBe(`${AUTH}/callback/oidc-form`)
    expect(form.fields.code).toBeTruthy()

    // A cross-site POST: the provider's origin, no SameSite=Lax cookies.
    const posted = await browser.request(form.action, { form: form.fields, omitCookies: true, headers: { origin: op.issuer } })
    expect(posted.status).toBe(303)
    const next = new URL(posted.headers.get('location') as string)
    expect(`${next.origin}${next.pathname}`).toBe(`${AUTH}/callback/oidc-form`)
    expect(next.searchParams.get('state')).toBe(form.fields.state)
    expect(await rows(auth, 'session')).toHaveLength(0)

    const end = await browser.navigate(next.toString())
    expect(end.location).toBe(`${BASE}/dashboard`)
    expect((await session(browser))?.user.email).toBe('bob@example.com')
  })
})

describe('state replay and tampering', () => {
  it('refuses a callback without the state cookie, and leaves the state unconsumed', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    op.login = 'alice'
    const start = await startSocial(browser, { provider: 'oidc' })
    browser.deleteCookie(BASE, (name) => name.endsWith('oauth_state'))
    const end = await browser.navigate(start.body.url as string)
    expect(end.visited.at(-1)).toBe(`${ERROR_PAGE}?error=please_restart_the_process`)
    expect(await end.response.text()).toContain('please_restart_the_process')
    expect(await rows(auth, 'verification')).toHaveLength(1)
    expect(await rows(auth, 'user')).toHaveLength(0)
  })

  it("refuses another browser's state: the victim's cookie names a different state", async () => {
    const auth = oidcAuth()
    const attacker = new Browser(auth)
    const victim = new Browser(auth)
    op.login = 'alice'
    // The attacker starts a flow and gets a code for their own provider account...
    const { callback } = await (async () => {
      const start = await startSocial(attacker, { provider: 'oidc' })
      const hops: string[] = []
      let url = start.body.url as string
      // ...stopping before their browser follows it to the callback.
      for (;;) {
        const response = await attacker.request(url)
        const location = new URL(response.headers.get('location') as string, url).toString()
        if (location.startsWith(`${AUTH}/callback/`)) return { callback: location, hops }
        hops.push(location)
        url = location
      }
    })()
    // ...and makes the victim's browser, which has a sign-in of its own under way, open it.
    await startSocial(victim, { provider: 'oidc' })
    const end = await victim.navigate(callback)
    expect(end.visited.at(-1)).toBe(`${ERROR_PAGE}?error=please_restart_the_process`)
    expect(await session(victim)).toBeNull()
    expect(await rows(auth, 'user')).toHaveLength(0)
  })

  it('a consumed state does not sign in twice, even with its cookie replayed', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    op.login = 'alice'
    const start = await startSocial(browser, { provider: 'oidc', callbackURL: '/dashboard' })
    const stateCookie = browser.cookie(BASE, 'oauth_state') as string
    const { visited, location } = await browser.navigate(start.body.url as string)
    expect(location).toBe(`${BASE}/dashboard`)
    const callback = visited.find((url) => url.startsWith(`${AUTH}/callback/`)) as string

    const replayer = new Browser(auth)
    replayer.setCookie(BASE, 'gatehouse.oauth_state', stateCookie)
    const replay = await replayer.navigate(callback)
    expect(replay.visited.at(-1)).toBe(`${ERROR_PAGE}?error=please_restart_the_process`)
    expect(await session(replayer)).toBeNull()
    expect(await rows(auth, 'session')).toHaveLength(1)
  })

  it('an expired state goes to the errorCallbackURL with please_restart_the_process', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    op.login = 'alice'
    const start = await startSocial(browser, { provider: 'oidc', errorCallbackURL: '/sign-in-failed' })
    auth.clock.advance(10 * 60 * 1000 + 1)
    const end = await browser.navigate(start.body.url as string)
    expect(end.location).toBe(`${BASE}/sign-in-failed?error=please_restart_the_process`)
    expect(await rows(auth, 'user')).toHaveLength(0)
  })

  it('a callback without state goes to the error page with state_not_found', async () => {
    const auth = oidcAuth()
    const response = await new Browser(auth).request(`${AUTH}/callback/oidc?code=abc`)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`${ERROR_PAGE}?error=state_not_found`)
  })

  it('a state is good only for its own purpose: not as a reset token, and a reset token is not a state', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    await browser.request(`${AUTH}/sign-up/email`, { json: { email: 'carol@example.com', password: PASSWORD, name: 'Carol' }, headers: { origin: BASE } })
    const start = await startSocial(browser, { provider: 'oidc' })
    const state = new URL(start.body.url as string).searchParams.get('state') as string
    const asReset = await browser.request(`${AUTH}/reset-password`, { json: { token: state, newPassword: 'another long passphrase' }, headers: { origin: BASE } })
    expect(asReset.status).toBe(400)
    expect((await asReset.json()).code).toBe('INVALID_TOKEN')

    await browser.request(`${AUTH}/request-password-reset`, { json: { email: 'carol@example.com' }, headers: { origin: BASE } })
    const resetToken = auth.mailbox.last('reset-password')?.token as string
    // Even with a state cookie validly signed for that value, the reset token is no state.
    const forger = new Browser(auth)
    const secrets = (await auth.$context).secrets
    forger.setCookie(BASE, 'gatehouse.oauth_state', encodeURIComponent(signCookieValue(resetToken, sharedKey(secrets, 'cookie:oauth_state'))))
    const asState = await forger.request(`${AUTH}/callback/oidc?state=${resetToken}&code=x`)
    expect(asState.headers.get('location')).toBe(`${ERROR_PAGE}?error=please_restart_the_process`)
    const reset = await browser.request(`${AUTH}/reset-password`, { json: { token: resetToken, newPassword: 'another long passphrase' }, headers: { origin: BASE } })
    expect(reset.status).toBe(200)
  })

  it('a state issued for one provider is refused at another provider’s callback', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    op.login = 'alice'
    const start = await startSocial(browser, { provider: 'oidc' })
    const state = new URL(start.body.url as string).searchParams.get('state') as string
    const response = await browser.request(`${AUTH}/callback/github?state=${state}&code=x`)
    expect(response.headers.get('location')).toBe(`${ERROR_PAGE}?error=invalid_callback_request`)
  })
})

describe('provider tokens', () => {
  it('stores tokens encrypted (the column is not the token and decrypts to it); list-accounts never shows them', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    await signInWith(auth, browser, 'alice')
    const response = await browser.request(`${AUTH}/get-access-token`, { json: { providerId: 'oidc' }, headers: { origin: BASE } })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.scopes).toEqual(['openid', 'profile', 'email'])
    expect(typeof body.idToken).toBe('string')
    // The token is the provider's: its UserInfo endpoint accepts it.
    const userinfo = await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${body.accessToken}` } })
    expect(userinfo.status).toBe(200)
    expect((await userinfo.json()).sub).toBe('alice')

    const [account] = (await rows(auth, 'account')) as Array<Record<string, string>>
    const secrets = (await auth.$context).secrets
    for (const [field, value] of [
      ['accessToken', body.accessToken],
      ['idToken', body.idToken],
    ] as const) {
      expect(account?.[field]).toMatch(/^v1\./)
      expect(account?.[field]).not.toContain(value)
      expect(await decryptToken(secrets, field, { providerId: 'oidc', accountId: 'alice' }, account?.[field])).toBe(value)
      // Bound to its account and column: elsewhere it does not decrypt.
      expect(await decryptToken(secrets, field, { providerId: 'oidc', accountId: 'bob' }, account?.[field])).toBeNull()
    }
    expect(await decryptToken(secrets, 'refreshToken', { providerId: 'oidc', accountId: 'alice' }, account?.accessToken)).toBeNull()
    expect(account?.refreshToken).toMatch(/^v1\./)

    const list = await browser.request(`${AUTH}/list-accounts`)
    const text = await list.text()
    expect(JSON.parse(text)).toEqual([expect.objectContaining({ provider: 'oidc', accountId: 'alice', scopes: ['openid', 'profile', 'email'] })])
    expect(text).not.toContain(body.accessToken)
    expect(text).not.toContain('v1.')
  })

  it('get-access-token refreshes a token that expires within 5 seconds, once for concurrent calls', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    await signInWith(auth, browser, 'alice')
    const first = await (await browser.request(`${AUTH}/get-access-token`, { json: { providerId: 'oidc' }, headers: { origin: BASE } })).json()
    const db = (await auth.$context).db
    const [account] = (await rows(auth, 'account')) as Array<Record<string, string>>
    // Not yet due: 6 s left.
    await db.update({ model: 'account', where: { field: 'id', value: account?.id as string }, update: { accessTokenExpiresAt: new Date(auth.clock.now().getTime() + 6000) } })
    const notDue = await (await browser.request(`${AUTH}/get-access-token`, { json: { providerId: 'oidc' }, headers: { origin: BASE } })).json()
    expect(notDue.accessToken).toBe(first.accessToken)

    await db.update({ model: 'account', where: { field: 'id', value: account?.id as string }, update: { accessTokenExpiresAt: new Date(auth.clock.now().getTime() + 4000) } })
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => browser.request(`${AUTH}/get-access-token`, { json: { providerId: 'oidc' }, headers: { origin: BASE } }).then((r) => r.json())),
    )
    const tokens = new Set(answers.map((answer) => answer.accessToken))
    expect(tokens.size).toBe(1)
    const [fresh] = [...tokens]
    expect(fresh).not.toBe(first.accessToken)
    expect(new Date(answers[0].accessTokenExpiresAt).getTime()).toBeGreaterThan(auth.clock.now().getTime() + 3_000_000)
    const userinfo = await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${fresh}` } })
    expect(userinfo.status).toBe(200)
  })

  it('account-info and refresh-token act on the caller’s own accounts only over HTTP; a body userId counts only server-side', async () => {
    const auth = oidcAuth()
    const alice = new Browser(auth)
    await signInWith(auth, alice, 'alice')
    const bob = new Browser(auth)
    await signInWith(auth, bob, 'bob')
    const aliceId = (await session(alice))?.user.id as string

    const own = await alice.request(`${AUTH}/account-info`, { json: { accountId: 'alice' }, headers: { origin: BASE } })
    expect(own.status).toBe(200)
    expect(await own.json()).toMatchObject({ user: { id: 'alice', email: 'Alice@Example.com', emailVerified: true, name: 'Alice Liddell' }, data: { sub: 'alice' } })

    const foreign = await bob.request(`${AUTH}/account-info`, { json: { accountId: 'alice', userId: aliceId }, headers: { origin: BASE } })
    expect(foreign.status).toBe(400)
    expect((await foreign.json()).message).toBe('Account not found')
    const foreignRefresh = await bob.request(`${AUTH}/refresh-token`, { json: { providerId: 'oidc', accountId: 'alice', userId: aliceId }, headers: { origin: BASE } })
    expect(foreignRefresh.status).toBe(400)
    expect((await foreignRefresh.json()).message).toBe('Account not found')
    const anonymous = await new Browser(auth).request(`${AUTH}/get-access-token`, { json: { providerId: 'oidc', userId: aliceId }, headers: { origin: BASE } })
    expect(anonymous.status).toBe(401)

    // The application itself may name the user.
    const refreshed = await auth.api.refreshToken({ body: { providerId: 'oidc', userId: aliceId } })
    expect(refreshed.tokenType).toBe('bearer')
    expect(typeof refreshed.accessToken).toBe('string')
    expect(typeof refreshed.refreshToken).toBe('string')
    await expect(auth.api.getAccessToken({ body: { providerId: 'oidc' } })).rejects.toMatchObject({ message: 'Either userId or session is required' })
  })
})

describe('ID-token sign-in', () => {
  async function idToken(claims: Record<string, unknown>, options: { key?: CryptoKey; kid?: string; expiresIn?: string } = {}) {
    return new SignJWT({ email: 'dora@example.com', email_verified: true, name: 'Dora', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'op-key' })
      .setIssuer(op.issuer)
      .setAudience(OIDC_CLIENT.id)
      .setSubject('dora')
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m')
      .sign(options.key ?? op.signingKey)
  }

  async function post(auth: TestAuth, browser: Browser, body: Record<string, unknown>) {
    const response = await browser.request(`${AUTH}/sign-in/social`, { json: { provider: 'oidc', ...body }, headers: { origin: BASE } })
    return { response, body: await response.json() }
  }

  it('signs in with a valid ID Token: {redirect: false, token, url, user} and a session cookie', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    const token = await idToken({ nonce: 'n-123' })
    const { response, body } = await post(auth, browser, { idToken: { token, nonce: 'n-123', accessToken: 'at-dora' }, callbackURL: '/home' })
    expect(response.status).toBe(200)
    expect(body).toMatchObject({ redirect: false, url: '/home', user: { email: 'dora@example.com', emailVerified: true, name: 'Dora' } })
    expect(body.token).toMatch(/^[A-Za-z0-9]{32}$/)
    expect((await session(browser))?.user.email).toBe('dora@example.com')
    const [account] = (await rows(auth, 'account')) as Array<Record<string, string>>
    expect(account).toMatchObject({ providerId: 'oidc', accountId: 'dora' })
    expect(account?.idToken).not.toBe(token)
  })

  it.each([
    ['a wrong audience', async () => ({ token: await new SignJWT({ email: 'dora@example.com' }).setProtectedHeader({ alg: 'RS256', kid: 'op-key' }).setIssuer(op.issuer).setAudience('someone-else').setSubject('dora').setIssuedAt().setExpirationTime('5m').sign(op.signingKey) })],
    ['a wrong nonce', async () => ({ token: await idToken({ nonce: 'n-1' }), nonce: 'n-2' })],
    ['a nonce in the token but none sent', async () => ({ token: await idToken({ nonce: 'n-1' }) })],
    ['an expired token', async () => ({ token: await idToken({}, { expiresIn: '-1m' }) })],
    ['a foreign key under the provider’s key id', async () => ({ token: await idToken({}, { key: (await generateKeyPair('RS256')).privateKey }) })],
    ['a wrong issuer', async () => ({ token: await new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid: 'op-key' }).setIssuer('http://127.0.0.1:1').setAudience(OIDC_CLIENT.id).setSubject('dora').setIssuedAt().setExpirationTime('5m').sign(op.signingKey) })],
  ])('refuses %s with 400 invalid token and no session', async (_name, make) => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    const { response, body } = await post(auth, browser, { idToken: await make() })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'INVALID_TOKEN', message: 'invalid token' })
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'user')).toHaveLength(0)
  })

  it('an ID Token vouching for the address of an unverified local user proves the mailbox; one that does not is refused', async () => {
    const auth = oidcAuth()
    const squatter = new Browser(auth)
    await squatter.request(`${AUTH}/sign-up/email`, { json: { email: 'dora@example.com', password: PASSWORD, name: 'Squatter' }, headers: { origin: BASE } })

    const unvouched = await post(auth, new Browser(auth), { idToken: { token: await idToken({ email_verified: false }) } })
    expect(unvouched.response.status).toBe(401)
    expect(unvouched.body.message).toBe('Account not linked - linking not allowed')
    expect((await rows(auth, 'account')).map((row) => row.providerId)).toEqual(['credential'])
    expect((await session(squatter))?.user.email).toBe('dora@example.com')

    const owner = new Browser(auth)
    const { response, body } = await post(auth, owner, { idToken: { token: await idToken({}) } })
    expect(response.status).toBe(200)
    expect(body.user).toMatchObject({ email: 'dora@example.com', emailVerified: true })
    expect((await rows(auth, 'account')).map((row) => row.providerId)).toEqual(['oidc'])
    expect(await session(squatter)).toBeNull()
    expect((await session(owner))?.user.email).toBe('dora@example.com')
  })

  it('link-social with an ID Token: links to the signed-in user; a different email, or another user’s account, is refused', async () => {
    const auth = oidcAuth()
    const dora = new Browser(auth)
    const signUp = await dora.request(`${AUTH}/sign-up/email`, { json: { email: 'dora@example.com', password: PASSWORD, name: 'Dora' }, headers: { origin: BASE } })
    const doraId = (await signUp.json()).user.id
    const link = (browser: Browser, token: string) =>
      browser.request(`${AUTH}/link-social`, { json: { provider: 'oidc', idToken: { token } }, headers: { origin: BASE } })

    const other = await link(dora, await idToken({ email: 'someone-else@example.com' }))
    expect(other.status).toBe(401)
    expect((await other.json()).message).toBe('Account not linked - different emails not allowed')

    const linked = await link(dora, await idToken({}))
    expect(await linked.json()).toEqual({ url: '', redirect: false, status: true })
    expect(await rows(auth, 'account')).toEqual(expect.arrayContaining([expect.objectContaining({ providerId: 'oidc', accountId: 'dora', userId: doraId })]))

    const eve = new Browser(auth)
    await eve.request(`${AUTH}/sign-up/email`, { json: { email: 'eve@example.com', password: PASSWORD, name: 'Eve' }, headers: { origin: BASE } })
    const taken = await link(eve, await new SignJWT({ email: 'eve@example.com', email_verified: true }).setProtectedHeader({ alg: 'RS256', kid: 'op-key' }).setIssuer(op.issuer).setAudience(OIDC_CLIENT.id).setSubject('dora').setIssuedAt().setExpirationTime('5m').sign(op.signingKey))
    expect(taken.status).toBe(400)
    expect((await taken.json()).message).toBe('Social account already linked')
  })

  it('answers "id_token not supported" for a provider without ID Tokens, or with ID-token sign-in turned off', async () => {
    const auth = oidcAuth()
    const browser = new Browser(auth)
    const github = await browser.request(`${AUTH}/sign-in/social`, { json: { provider: 'github', idToken: { token: 'x.y.z' } }, headers: { origin: BASE } })
    expect(github.status).toBe(400)
    expect((await github.json()).message).toBe('id_token not supported')

    const off = oidcAuth({
      socialProviders: { oidc: { type: 'oidc', issuer: op.issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, disableIdTokenSignIn: true } },
    })
    const refused = await new Browser(off).request(`${AUTH}/sign-in/social`, { json: { provider: 'oidc', idToken: { token: await idToken({}) } }, headers: { origin: BASE } })
    expect((await refused.json()).message).toBe('id_token not supported')
  })
})
