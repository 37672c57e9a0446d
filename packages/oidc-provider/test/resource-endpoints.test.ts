/**
 * The endpoints used with a token in hand: userinfo (claims by scope,
 * invalid_token challenges), revoke (RFC 7009), introspect (RFC 7662) and
 * RP-initiated logout at end-session.
 */
import { describe, expect, it } from 'vitest'
import { authed, cookieHeader } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import {
  authorizeCode,
  basic,
  CALLBACK,
  createClient,
  ISSUER,
  newUser,
  postForm,
  providerAuth,
  redeem,
  type ProviderAuth,
  type TestClient,
  type TestUser,
  userinfo,
} from './fixtures.js'

async function tokensFor(auth: ProviderAuth, user: TestUser, client: TestClient, scope = 'openid profile email offline_access') {
  const { code, verifier } = await authorizeCode(auth, user, client, { scope, prompt: 'consent' })
  const reply = await redeem(auth, client, code, verifier)
  expect(reply.status).toBe(200)
  return reply.body as { access_token: string; refresh_token?: string; id_token?: string }
}

describe('userinfo', () => {
  it('answers claims by scope, by GET and POST', async () => {
    const auth = providerAuth()
    const user = await newUser(auth, 'Grace Brewster Hopper')
    const client = await createClient(auth)
    const all = await tokensFor(auth, user, client)
    const reply = await userinfo(auth, all.access_token)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    expect(reply.body).toEqual({
      sub: user.id,
      email: user.email,
      email_verified: false,
      name: 'Grace Brewster Hopper',
      given_name: 'Grace',
      family_name: 'Brewster Hopper',
    })
    const post = await auth.handler(request('/api/auth/oauth2/userinfo', { method: 'POST', headers: { authorization: `Bearer ${all.access_token}` } }))
    expect(await post.json()).toEqual(reply.body)

    const inBody = await auth.handler(
      request('/api/auth/oauth2/userinfo', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `access_token=${all.access_token}`,
      }),
    )
    expect(await inBody.json()).toEqual(reply.body)

    const openidOnly = await tokensFor(auth, user, client, 'openid')
    expect((await userinfo(auth, openidOnly.access_token)).body).toEqual({ sub: user.id })
    const emailOnly = await tokensFor(auth, user, client, 'openid email')
    expect((await userinfo(auth, emailOnly.access_token)).body).toEqual({ sub: user.id, email: user.email, email_verified: false })
  })

  it('adds the application claims, which cannot replace sub', async () => {
    const auth = providerAuth({ getAdditionalUserInfoClaims: (user, scopes) => ({ sub: 'forged', tier: scopes.includes('profile') ? 'gold' : 'none', uid: user.id }) })
    const user = await newUser(auth)
    const client = await createClient(auth)
    const tokens = await tokensFor(auth, user, client)
    expect((await userinfo(auth, tokens.access_token)).body).toMatchObject({ sub: user.id, tier: 'gold', uid: user.id })
  })

  it.each([
    // RFC 6750 §3.1: no credentials at all gets the bare challenge, without an error code.
    ['no token', undefined, 'Bearer'],
    ['another scheme', 'Basic abc', 'Bearer'],
    ['an unknown token', 'Bearer abcdefghijklmnopqrstuvwxyz012345', 'Bearer error="invalid_token", error_description="The access token is invalid or has expired"'],
  ])('%s is 401 invalid_token with an RFC 6750 Bearer challenge', async (_, authorization, challenge) => {
    const auth = providerAuth()
    const response = await auth.handler(request('/api/auth/oauth2/userinfo', { headers: authorization ? { authorization } : {} }))
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe(challenge)
    expect(await response.json()).toMatchObject({ error: 'invalid_token' })
  })

  it('a token without openid is 403 insufficient_scope', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const tokens = await tokensFor(auth, user, client, 'email')
    const reply = await userinfo(auth, tokens.access_token)
    expect(reply.status).toBe(403)
    expect(reply.body.error).toBe('insufficient_scope')
  })
})

function revoke(auth: ProviderAuth, client: TestClient, token: string, hint?: string) {
  return postForm(auth, '/oauth2/revoke', { token, ...(hint ? { token_type_hint: hint } : {}) }, { authorization: basic(client.clientId, client.clientSecret ?? '') })
}

function introspect(auth: ProviderAuth, client: TestClient, token: string, hint?: string) {
  return postForm(auth, '/oauth2/introspect', { token, ...(hint ? { token_type_hint: hint } : {}) }, { authorization: basic(client.clientId, client.clientSecret ?? '') })
}

describe('revoke', () => {
  it('revoking an access token stops it at once; the refresh token still works', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const tokens = await tokensFor(auth, user, client)
    const reply = await revoke(auth, client, tokens.access_token, 'access_token')
    expect(reply.status).toBe(200)
    expect(reply.body).toBeNull()
    expect((await userinfo(auth, tokens.access_token)).status).toBe(401)
    const refreshed = await postForm(auth, '/oauth2/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '' }, { authorization: basic(client.clientId, client.clientSecret ?? '') })
    expect(refreshed.status).toBe(200)
  })

  it('revoking a refresh token revokes its family, whatever the hint', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const tokens = await tokensFor(auth, user, client)
    expect((await revoke(auth, client, tokens.refresh_token ?? '', 'access_token')).status).toBe(200)
    expect((await userinfo(auth, tokens.access_token)).status).toBe(401)
  })

  it("another client's token and an unknown token are ignored with 200; a bad client is 401", async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const other = await createClient(auth)
    const tokens = await tokensFor(auth, user, client)
    expect((await revoke(auth, other, tokens.access_token)).status).toBe(200)
    expect((await userinfo(auth, tokens.access_token)).status).toBe(200)
    expect((await revoke(auth, client, 'unknown-token')).status).toBe(200)
    expect((await revoke(auth, { clientId: client.clientId, clientSecret: 'wrong' }, tokens.access_token)).status).toBe(401)
    expect((await postForm(auth, '/oauth2/revoke', {}, { authorization: basic(client.clientId, client.clientSecret ?? '') })).body.error).toBe('invalid_request')
  })
})

describe('introspect', () => {
  it('describes an active access or refresh token to its client', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const tokens = await tokensFor(auth, user, client)
    const now = Math.floor(auth.clock.now().getTime() / 1000)
    const access = await introspect(auth, client, tokens.access_token)
    expect(access.status).toBe(200)
    expect(access.body).toEqual({
      active: true,
      scope: 'openid profile email offline_access',
      client_id: client.clientId,
      sub: user.id,
      aud: client.clientId,
      iss: ISSUER,
      token_type: 'Bearer',
      exp: now + 3600,
      iat: now,
    })
    const refresh = await introspect(auth, client, tokens.refresh_token ?? '', 'refresh_token')
    expect(refresh.body).toMatchObject({ active: true, token_type: 'refresh_token', exp: now + 604_800 })
  })

  it("is inactive for expired, unknown and other clients' tokens; needs client authentication", async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const other = await createClient(auth)
    const tokens = await tokensFor(auth, user, client)
    expect((await introspect(auth, other, tokens.access_token)).body).toEqual({ active: false })
    expect((await introspect(auth, client, 'nope')).body).toEqual({ active: false })
    const anonymous = await postForm(auth, '/oauth2/introspect', { token: tokens.access_token })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.error).toBe('invalid_client')
    const spa = await createClient(auth, { type: 'public' })
    const publicCaller = await postForm(auth, '/oauth2/introspect', { token: tokens.access_token, client_id: spa.clientId })
    expect(publicCaller.status).toBe(401)
    auth.clock.advance(3_600_000)
    expect((await introspect(auth, client, tokens.access_token)).body).toEqual({ active: false })
  })

  it('a trusted confidential client (a resource server) may introspect any token', async () => {
    const auth = providerAuth({ trustedClients: [{ clientId: 'api', clientSecret: 'r'.repeat(40), name: 'API', redirectURLs: [CALLBACK], type: 'web' }] })
    const user = await newUser(auth)
    const client = await createClient(auth)
    const tokens = await tokensFor(auth, user, client)
    expect((await introspect(auth, { clientId: 'api', clientSecret: 'r'.repeat(40) }, tokens.access_token)).body.active).toBe(true)
  })
})

describe('end-session', () => {
  async function signedInWithIdToken(auth: ProviderAuth, postLogout = ['https://rp.example.com/logged-out']) {
    const user = await newUser(auth)
    const client = await createClient(auth, { postLogoutRedirectURLs: postLogout })
    const tokens = await tokensFor(auth, user, client, 'openid')
    return { user, client, idToken: tokens.id_token ?? '' }
  }

  function endSession(auth: ProviderAuth, params: Record<string, string>, cookie = '') {
    return auth.handler(request(`/api/auth/oauth2/end-session?${new URLSearchParams(params)}`, { headers: cookie ? { cookie } : {} }))
  }

  it('signs the user out and redirects to the registered post_logout_redirect_uri with state, even with an expired hint', async () => {
    const auth = providerAuth()
    const { user, idToken } = await signedInWithIdToken(auth)
    auth.clock.advance(7200_000)
    const response = await endSession(auth, { id_token_hint: idToken, post_logout_redirect_uri: 'https://rp.example.com/logged-out', state: 'bye' }, user.cookie)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('https://rp.example.com/logged-out?state=bye')
    expect(response.headers.getSetCookie().some((line) => line.includes('session_token') && /Max-Age=0/i.test(line))).toBe(true)
    const { db } = await auth.$context
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.id } })).toBe(0)
    const session = await auth.handler(request('/api/auth/get-session', { headers: { cookie: cookieHeader(response, user.cookie) } }))
    expect(await session.json()).toBeNull()
  })

  it('refuses an unregistered post_logout_redirect_uri and a target without a client', async () => {
    const auth = providerAuth()
    const { user, idToken } = await signedInWithIdToken(auth)
    const unregistered = await endSession(auth, { id_token_hint: idToken, post_logout_redirect_uri: 'https://rp.example.com/logged-out/' }, user.cookie)
    expect(unregistered.status).toBe(400)
    expect((await unregistered.json()).error).toBe('invalid_request')
    const noClient = await endSession(auth, { post_logout_redirect_uri: 'https://rp.example.com/logged-out' }, user.cookie)
    expect(noClient.status).toBe(400)
    // The refused requests signed nobody out.
    const { db } = await auth.$context
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.id } })).toBe(1)
  })

  it('without a hint signs nobody out and redirects nowhere: the user confirms on a page, and stays on the provider', async () => {
    const auth = providerAuth()
    const { user, client } = await signedInWithIdToken(auth)
    const { db } = await auth.$context
    const asked = await endSession(auth, { client_id: client.clientId, post_logout_redirect_uri: 'https://rp.example.com/logged-out', state: 's' }, user.cookie)
    expect(asked.status).toBe(200)
    expect(asked.headers.get('content-type')).toContain('text/html')
    expect(asked.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const page = await asked.text()
    expect(page).toContain(`<form method="post" action="${BASE}/api/auth/oauth2/end-session">`)
    expect(page).toContain(user.email)
    expect(page).not.toContain('rp.example.com')
    expect(asked.headers.getSetCookie()).toEqual([])
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.id } })).toBe(1)

    // Another site cannot press the button.
    const forged = await auth.handler(request('/api/auth/oauth2/end-session', { method: 'POST', headers: { cookie: user.cookie, origin: 'https://evil.example' } }))
    expect(forged.status).toBe(403)
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.id } })).toBe(1)

    const confirmed = await auth.handler(request('/api/auth/oauth2/end-session', { method: 'POST', headers: { cookie: user.cookie, origin: BASE } }))
    expect(confirmed.status).toBe(303)
    expect(confirmed.headers.get('location')).toBe('/')
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.id } })).toBe(0)

    // Signed out already: nothing to ask.
    const none = await endSession(auth, { client_id: client.clientId })
    expect(await none.json()).toEqual({ success: true })
  })

  it("the review's redirector: the attacker's own ID Token as the hint never sends anyone to the attacker's URI", async () => {
    const auth = providerAuth()
    // The attacker's client (self-registered, their own post-logout URI) and an ID Token for their own account.
    const attacker = await newUser(auth)
    const registered = await auth.handler(
      authed('/api/auth/oauth2/register', attacker.cookie, {
        json: { client_name: 'B', redirect_uris: [CALLBACK], post_logout_redirect_uris: ['https://evil.example/bye'] },
      }),
    )
    const { client_id, client_secret } = (await registered.json()) as { client_id: string; client_secret: string }
    const tokens = await tokensFor(auth, attacker, { clientId: client_id, clientSecret: client_secret }, 'openid')
    auth.clock.advance(7200_000)
    const link = { id_token_hint: tokens.id_token ?? '', post_logout_redirect_uri: 'https://evil.example/bye', state: 's' }

    // The victim, signed in: asked, not signed out, not redirected.
    const victim = await newUser(auth)
    const asked = await endSession(auth, link, victim.cookie)
    expect(asked.status).toBe(200)
    expect(asked.headers.get('location')).toBeNull()
    const page = await asked.text()
    expect(page).toContain(`<form method="post" action="${BASE}/api/auth/oauth2/end-session">`)
    expect(page).not.toContain('evil.example')
    const { db } = await auth.$context
    expect(await db.count({ model: 'session', where: { field: 'userId', value: victim.id } })).toBe(1)

    // No session at all: a page with a link, labelled by its host, never a redirect.
    const anonymous = await endSession(auth, link)
    expect(anonymous.status).toBe(200)
    expect(anonymous.headers.get('location')).toBeNull()
    expect(anonymous.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const signedOut = await anonymous.text()
    expect(signedOut).toContain('<a href="https://evil.example/bye?state=s" rel="noreferrer">Continue to evil.example</a>')
  })

  it('a hint that does not verify (a retired key, a forgery) counts as no hint: the user is asked, not refused (RP-Initiated Logout §2)', async () => {
    const auth = providerAuth()
    const { user, idToken, client } = await signedInWithIdToken(auth)
    const [header, payload] = idToken.split('.')
    const unverifiable = `${header}.${payload}.AAAA`
    const response = await endSession(auth, { id_token_hint: unverifiable, post_logout_redirect_uri: 'https://rp.example.com/logged-out' }, user.cookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('location')).toBeNull()
    expect(await response.text()).toContain('Sign out?')
    const { db } = await auth.$context
    expect(await db.count({ model: 'session', where: { field: 'userId', value: user.id } })).toBe(1)
    // With the client named, its registered URI is still checked; nobody signed in is told so.
    const named = await endSession(auth, { id_token_hint: unverifiable, client_id: client.clientId })
    expect(await named.json()).toEqual({ success: true })
  })
})
