/**
 * GET /oauth2/authorize: what is answered in place (unknown client, redirect
 * URI not registered exactly, disabled client), what is redirected to the
 * client with error, error_description, state and iss, the login and
 * consent detours with their signed cookies, prompt and max_age.
 */
import { describe, expect, it } from 'vitest'
import { cookieHeader } from '../../core/test/accounts.js'
import {
  authorizeCode,
  authorizeQuery,
  CALLBACK,
  CONSENT_PAGE,
  createClient,
  getAuthorize,
  ISSUER,
  location,
  LOGIN_PAGE,
  newUser,
  postConsent,
  providerAuth,
  type ProviderAuth,
} from './fixtures.js'

async function setup(options: Parameters<typeof providerAuth>[0] = {}) {
  const auth = providerAuth(options)
  const user = await newUser(auth)
  const client = await createClient(auth)
  return { auth, user, client }
}

function signInWith(auth: ProviderAuth, email: string, cookie: string) {
  return auth.handler(
    new Request(`${ISSUER}/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    }),
  )
}

async function errorOf(auth: ProviderAuth, query: URLSearchParams, cookie: string) {
  const response = await getAuthorize(auth, query, cookie)
  expect(response.status).toBe(302)
  const target = location(response)
  expect(target.origin + target.pathname).toBe(CALLBACK)
  expect(target.searchParams.get('iss')).toBe(ISSUER)
  expect(target.searchParams.get('code')).toBeNull()
  return target.searchParams
}

describe('errors answered in place, never redirected', () => {
  it('an unknown client is 400 invalid_client', async () => {
    const { auth, user } = await setup()
    const { query } = authorizeQuery({ clientId: 'nope', clientSecret: undefined })
    const response = await getAuthorize(auth, query, user.cookie)
    expect(response.status).toBe(400)
    expect(response.headers.get('location')).toBeNull()
    expect(await response.json()).toEqual({ error: 'invalid_client', error_description: 'Invalid client' })
  })

  it('a missing client_id is 400 invalid_request', async () => {
    const { auth, user, client } = await setup()
    const { query } = authorizeQuery(client, { client_id: undefined })
    const response = await getAuthorize(auth, query, user.cookie)
    expect(response.status).toBe(400)
    expect((await response.json()).error).toBe('invalid_request')
  })

  it.each([
    ['a prefix', `${CALLBACK}/more`],
    ['another case', CALLBACK.toUpperCase()],
    ['a trailing slash', `${CALLBACK}/`],
    ['a port', 'https://rp.example.com:443/callback'],
    ['a query', `${CALLBACK}?x=1`],
    ['another host', 'https://evil.example.com/callback'],
  ])('a redirect_uri differing by %s is 400 "Invalid redirect URI"', async (_, redirectURI) => {
    const { auth, user, client } = await setup()
    const { query } = authorizeQuery(client, { redirect_uri: redirectURI })
    const response = await getAuthorize(auth, query, user.cookie)
    expect(response.status).toBe(400)
    expect(response.headers.get('location')).toBeNull()
    expect(await response.json()).toEqual({ error: 'invalid_redirect_uri', error_description: 'Invalid redirect URI' })
  })

  it('a missing redirect_uri is refused the same way', async () => {
    const { auth, user, client } = await setup()
    const response = await getAuthorize(auth, authorizeQuery(client, { redirect_uri: undefined }).query, user.cookie)
    expect(response.status).toBe(400)
    expect((await response.json()).error_description).toBe('Invalid redirect URI')
  })

  it('a disabled client is client_disabled', async () => {
    const { auth, user, client } = await setup()
    await auth.api.oauth2UpdateClient({ body: { clientId: client.clientId, update: { disabled: true } } })
    const response = await getAuthorize(auth, authorizeQuery(client).query, user.cookie)
    expect(response.status).toBe(400)
    expect(response.headers.get('location')).toBeNull()
    expect((await response.json()).error).toBe('client_disabled')
  })
})

describe('the error page a browser sees instead of the JSON', () => {
  const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

  async function answer(auth: ProviderAuth, query: URLSearchParams, cookie: string, accept: string | undefined) {
    return auth.handler(
      new Request(`${ISSUER}/oauth2/authorize?${query}`, { headers: { cookie, ...(accept === undefined ? {} : { accept }) } }),
    )
  }

  it.each([
    ['an unknown client', { client_id: 'nope' }, 'invalid_client', 'Invalid client'],
    ['a redirect URI not registered', { redirect_uri: 'https://evil.example.com/callback?<script>' }, 'invalid_redirect_uri', 'Invalid redirect URI'],
  ])('%s: a 400 HTML page, escaped, never cached, never framed, and no redirect', async (_, overrides, error, description) => {
    const { auth, user, client } = await setup()
    const response = await answer(auth, authorizeQuery(client, overrides).query, user.cookie, BROWSER_ACCEPT)
    expect(response.status).toBe(400)
    expect(response.headers.get('location')).toBeNull()
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await response.text()
    expect(html).toContain(`<code>${error}</code>`)
    expect(html).toContain(`<p>${description}</p>`)
    // Nothing of the request is echoed: not the unverified address, not its markup.
    expect(html).not.toContain('evil.example.com')
    expect(html).not.toContain('<script>')
  })

  it.each([
    ['no Accept header', undefined],
    ['*/*', '*/*'],
    ['application/json', 'application/json'],
    ['JSON preferred over HTML', 'text/html;q=0.5, application/json'],
  ])('an API caller (%s) keeps the JSON error object', async (_, accept) => {
    const { auth, user, client } = await setup()
    const response = await answer(auth, authorizeQuery(client, { client_id: 'nope' }).query, user.cookie, accept)
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ error: 'invalid_client', error_description: 'Invalid client' })
  })

  it('errors the client may receive are still redirected for a browser', async () => {
    const { auth, user, client } = await setup()
    const response = await answer(auth, authorizeQuery(client, { scope: 'openid unknown' }).query, user.cookie, BROWSER_ACCEPT)
    expect(response.status).toBe(302)
    expect(location(response).searchParams.get('error')).toBe('invalid_scope')
  })
})

describe('errors redirected to the client with state and iss', () => {
  it.each([
    ['missing response_type', { response_type: undefined }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['an unknown scope', { scope: 'openid admin' }, 'invalid_scope'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a PKCE challenge without method (plain by default)', { code_challenge_method: undefined }, 'invalid_request'],
    ['a malformed challenge', { code_challenge: 'short' }, 'invalid_request'],
    ['a request object', { request: 'eyJhbGciOiJub25lIn0.e30.' }, 'request_not_supported'],
    ['a request_uri', { request_uri: 'https://rp.example.com/request.jwt' }, 'request_uri_not_supported'],
    ['an unknown prompt', { prompt: 'maybe' }, 'invalid_request'],
    ['prompt=none with login', { prompt: 'none login' }, 'invalid_request'],
    ['a negative max_age', { max_age: '-1' }, 'invalid_request'],
    ['response_mode fragment', { response_mode: 'fragment' }, 'invalid_request'],
  ])('%s', async (_, overrides, error) => {
    const { auth, user, client } = await setup()
    const { query, state } = authorizeQuery(client, overrides)
    const params = await errorOf(auth, query, user.cookie)
    expect(params.get('error')).toBe(error)
    expect(params.get('error_description')).toEqual(expect.any(String))
    expect(params.get('state')).toBe(state)
  })

  it('a repeated parameter is invalid_request', async () => {
    const { auth, user, client } = await setup()
    const { query } = authorizeQuery(client)
    query.append('scope', 'openid')
    expect((await errorOf(auth, query, user.cookie)).get('error')).toBe('invalid_request')
  })

  it('configured extra scopes are accepted; plain PKCE when allowed; a confidential client may leave PKCE out by default', async () => {
    const { auth, user, client } = await setup({ scopes: ['notes:read'], allowPlainCodeChallengeMethod: true })
    await auth.api.oauth2CreateClient({ body: { name: 'x', redirectURLs: [CALLBACK] } })
    const plain = 'a'.repeat(43)
    const first = await getAuthorize(auth, authorizeQuery(client, { scope: 'openid notes:read', code_challenge: plain, code_challenge_method: 'plain' }).query, user.cookie)
    expect(location(first).href.startsWith(CONSENT_PAGE)).toBe(true)
    expect(location(first).searchParams.get('scope')).toBe('openid notes:read')
    const none = await getAuthorize(auth, authorizeQuery(client, { code_challenge: undefined, code_challenge_method: undefined }).query, user.cookie)
    expect(location(none).href.startsWith(CONSENT_PAGE)).toBe(true)
  })

  it('a public client always needs PKCE (RFC 9700 §2.1.1); requirePKCE: true asks it of confidential clients too', async () => {
    const noChallenge = { code_challenge: undefined, code_challenge_method: undefined }
    const { auth, user } = await setup()
    const spa = await createClient(auth, { type: 'public' })
    const params = await errorOf(auth, authorizeQuery(spa, noChallenge).query, user.cookie)
    expect(params.get('error')).toBe('invalid_request')
    expect(params.get('error_description')).toBe('code_challenge is required')

    const strict = await setup({ requirePKCE: true })
    const refused = await errorOf(strict.auth, authorizeQuery(strict.client, noChallenge).query, strict.user.cookie)
    expect(refused.get('error')).toBe('invalid_request')
    expect(refused.get('error_description')).toBe('code_challenge is required')
  })
})

describe('sign-in detour', () => {
  it('without a session goes to the login page with the request, kept in a signed cookie for 600 s', async () => {
    const { auth, client } = await setup()
    const { query } = authorizeQuery(client, { login_hint: 'ada@example.com', ui_locales: 'fr' })
    const response = await getAuthorize(auth, query, '')
    expect(response.status).toBe(302)
    const target = location(response)
    expect(target.origin + target.pathname).toBe(LOGIN_PAGE)
    expect(target.searchParams.get('client_id')).toBe(client.clientId)
    expect(target.searchParams.get('login_hint')).toBe('ada@example.com')
    const cookie = response.headers.getSetCookie().find((line) => line.includes('oidc_login_prompt'))
    expect(cookie).toMatch(/Max-Age=600/i)
    expect(cookie).toMatch(/HttpOnly/i)
  })

  it('prompt=none without a session redirects login_required', async () => {
    const { auth, client } = await setup()
    const { query, state } = authorizeQuery(client, { prompt: 'none' })
    const params = await errorOf(auth, query, '')
    expect(params.get('error')).toBe('login_required')
    expect(params.get('state')).toBe(state)
  })

  it('sign-in with the pending cookie answers the next step: the consent page', async () => {
    const { auth, user, client } = await setup()
    const { query } = authorizeQuery(client)
    const detour = await getAuthorize(auth, query, '')
    const pending = cookieHeader(detour)
    const signIn = await auth.handler(
      new Request(`${ISSUER}/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie: pending },
        body: JSON.stringify({ email: user.email, password: 'correct horse battery' }),
      }),
    )
    expect(signIn.status).toBe(200)
    const body = await signIn.json()
    expect(body.redirect).toBe(true)
    const next = new URL(body.url)
    expect(next.origin + next.pathname).toBe(CONSENT_PAGE)
    expect(next.searchParams.get('client_id')).toBe(client.clientId)
    expect(next.searchParams.get('scope')).toBe('openid profile email')
    // The login cookie is spent; the consent cookie carries the pending request.
    const lines = signIn.headers.getSetCookie()
    expect(lines.find((line) => line.includes('oidc_login_prompt'))).toMatch(/Max-Age=0/i)
    expect(lines.find((line) => line.includes('oidc_consent_prompt'))).toMatch(/Max-Age=600/i)

    const consent = await postConsent(auth, cookieHeader(signIn, pending), true, next.searchParams.get('consent_id') ?? '')
    const back = new URL(String(consent.body.redirectURI))
    expect(back.origin + back.pathname).toBe(CALLBACK)
    expect(back.searchParams.get('code')).toHaveLength(32)
  })

  it('sign-in without the pending cookie answers as usual', async () => {
    const { auth, user } = await setup()
    const signIn = await auth.handler(
      new Request(`${ISSUER}/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
        body: JSON.stringify({ email: user.email, password: 'correct horse battery' }),
      }),
    )
    expect(await signIn.json()).toMatchObject({ redirect: false, user: { id: user.id } })
  })

  it('a client disabled while the user signs in: the sign-in stands, without a redirect, and the cookie is cleared', async () => {
    const { auth, user, client } = await setup()
    const detour = await getAuthorize(auth, authorizeQuery(client).query, '')
    await auth.api.oauth2UpdateClient({ body: { clientId: client.clientId, update: { disabled: true } } })
    const signIn = await signInWith(auth, user.email, cookieHeader(detour))
    expect(signIn.status).toBe(200)
    expect(await signIn.json()).toMatchObject({ redirect: false, user: { id: user.id } })
    expect(signIn.headers.getSetCookie().find((line) => line.includes('oidc_login_prompt'))).toMatch(/Max-Age=0/i)
  })

  it('a tampered login cookie is ignored by sign-in', async () => {
    const { auth, user, client } = await setup()
    const detour = await getAuthorize(auth, authorizeQuery(client).query, '')
    const tampered = cookieHeader(detour).replace(/oidc_login_prompt=([^;]*)/, (_, value: string) => `oidc_login_prompt=${value.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`)
    const signIn = await signInWith(auth, user.email, tampered)
    expect((await signIn.json()).redirect).toBe(false)
  })

  it('the login page may re-open the authorize URL itself once signed in', async () => {
    const { auth, user, client } = await setup()
    await authorizeCode(auth, user, client) // remembers consent
    const { query } = authorizeQuery(client)
    const detour = await getAuthorize(auth, query, '')
    expect(location(detour).pathname).toBe('/login')
    const cookie = `${cookieHeader(detour)}; ${user.cookie}`
    const again = await getAuthorize(auth, new URLSearchParams(location(detour).search), cookie)
    expect(location(again).searchParams.get('code')).toHaveLength(32)
  })

  it('prompt=login sends a signed-in user to the login page; a sign-in after that satisfies it', async () => {
    const { auth, user, client } = await setup()
    await authorizeCode(auth, user, client)
    auth.clock.advance(1000)
    const { query } = authorizeQuery(client, { prompt: 'login' })
    const detour = await getAuthorize(auth, query, user.cookie)
    expect(location(detour).pathname).toBe('/login')
    // Re-opening with the old session does not satisfy it.
    const stale = await getAuthorize(auth, query, cookieHeader(detour, user.cookie))
    expect(location(stale).pathname).toBe('/login')

    auth.clock.advance(1000)
    const signIn = await auth.handler(
      new Request(`${ISSUER}/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie: cookieHeader(stale, user.cookie) },
        body: JSON.stringify({ email: user.email, password: 'correct horse battery' }),
      }),
    )
    const next = new URL((await signIn.json()).url)
    expect(next.origin + next.pathname).toBe(CALLBACK)
    expect(next.searchParams.get('code')).toHaveLength(32)
  })

  it('select_account is treated as login', async () => {
    const { auth, user, client } = await setup()
    const detour = await getAuthorize(auth, authorizeQuery(client, { prompt: 'select_account' }).query, user.cookie)
    expect(location(detour).pathname).toBe('/login')
  })

  it('max_age older than the session sends to the login page; a fresh session passes', async () => {
    const { auth, user, client } = await setup()
    await authorizeCode(auth, user, client)
    expect(location(await getAuthorize(auth, authorizeQuery(client, { max_age: '60' }).query, user.cookie)).searchParams.get('code')).toHaveLength(32)
    auth.clock.advance(61_000)
    expect(location(await getAuthorize(auth, authorizeQuery(client, { max_age: '60' }).query, user.cookie)).pathname).toBe('/login')
    const params = await errorOf(auth, authorizeQuery(client, { max_age: '60', prompt: 'none' }).query, user.cookie)
    expect(params.get('error')).toBe('login_required')
  })
})

describe('POST /oauth2/authorize', () => {
  it('takes the parameters as a form, from the relying party origin', async () => {
    const { auth, user, client } = await setup()
    await authorizeCode(auth, user, client)
    const { query, state } = authorizeQuery(client)
    const response = await auth.handler(
      new Request(`${ISSUER}/oauth2/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://rp.example.com', cookie: user.cookie },
        body: query.toString(),
      }),
    )
    expect(response.status).toBe(302)
    const target = location(response)
    expect(target.searchParams.get('code')).toHaveLength(32)
    expect(target.searchParams.get('state')).toBe(state)
  })
})

describe('consent detour', () => {
  it('a first authorization shows the consent page with client_id, scope and the request\'s consent_id', async () => {
    const { auth, user, client } = await setup()
    const response = await getAuthorize(auth, authorizeQuery(client).query, user.cookie)
    const target = location(response)
    expect(target.origin + target.pathname).toBe(CONSENT_PAGE)
    expect(Object.fromEntries(target.searchParams)).toEqual({ client_id: client.clientId, scope: 'openid profile email', consent_id: expect.stringMatching(/^[A-Za-z0-9]{16}$/) })
    // The pending code is stored, hashed, under its own purpose.
    const { db } = await auth.$context
    const rows = await db.findMany<{ identifier: string; value: string }>({ model: 'verification' })
    const pending = rows.filter((row) => row.identifier.startsWith('oidc-consent:'))
    expect(pending).toHaveLength(1)
    expect(JSON.parse(pending[0]?.value ?? '{}')).toMatchObject({ clientId: client.clientId, userId: user.id })
  })

  it('remembered consent skips the page; prompt=consent shows it again; wider scopes show it again', async () => {
    const { auth, user, client } = await setup()
    await authorizeCode(auth, user, client, { scope: 'openid email' })
    expect(location(await getAuthorize(auth, authorizeQuery(client, { scope: 'openid' }).query, user.cookie)).searchParams.get('code')).toHaveLength(32)
    expect(location(await getAuthorize(auth, authorizeQuery(client, { scope: 'openid', prompt: 'consent' }).query, user.cookie)).href).toContain(CONSENT_PAGE)
    expect(location(await getAuthorize(auth, authorizeQuery(client, { scope: 'openid profile' }).query, user.cookie)).href).toContain(CONSENT_PAGE)
  })

  it('prompt=none when consent is needed redirects consent_required', async () => {
    const { auth, user, client } = await setup()
    const params = await errorOf(auth, authorizeQuery(client, { prompt: 'none' }).query, user.cookie)
    expect(params.get('error')).toBe('consent_required')
  })

  it('offline_access without prompt=consent is dropped; with it, kept', async () => {
    const { auth, user, client } = await setup()
    const dropped = location(await getAuthorize(auth, authorizeQuery(client, { scope: 'openid offline_access' }).query, user.cookie))
    expect(dropped.searchParams.get('scope')).toBe('openid')
    const kept = location(await getAuthorize(auth, authorizeQuery(client, { scope: 'openid offline_access', prompt: 'consent' }).query, user.cookie))
    expect(kept.searchParams.get('scope')).toBe('openid offline_access')
  })

  it('trusted clients with skipConsent go straight back with a code', async () => {
    const auth = providerAuth({
      trustedClients: [{ clientId: 'first-party', clientSecret: 's'.repeat(40), name: 'Console', redirectURLs: [CALLBACK], type: 'web', skipConsent: true }],
    })
    const user = await newUser(auth)
    const response = await getAuthorize(auth, authorizeQuery({ clientId: 'first-party', clientSecret: 'x' }).query, user.cookie)
    expect(location(response).searchParams.get('code')).toHaveLength(32)
  })

  it('no consent page configured when one is needed is 500 "No consent page provided"', async () => {
    const { auth, user, client } = await setup({ consentPage: undefined })
    const response = await getAuthorize(auth, authorizeQuery(client).query, user.cookie)
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ error: 'server_error', error_description: 'No consent page provided' })
  })

  it('the code is stored hashed as a verification value for 600 s, and the redirect carries code, state and iss', async () => {
    const { auth, user, client } = await setup()
    const { code, state, redirect } = await authorizeCode(auth, user, client)
    expect(redirect.searchParams.get('state')).toBe(state)
    expect(redirect.searchParams.get('iss')).toBe(ISSUER)
    const { db } = await auth.$context
    const rows = await db.findMany<{ identifier: string; expiresAt: Date }>({ model: 'verification' })
    const stored = rows.filter((row) => row.identifier.startsWith('oidc-code:'))
    expect(stored).toHaveLength(1)
    expect(stored[0]?.identifier).not.toContain(code)
    expect(stored[0]?.expiresAt.getTime()).toBe(auth.clock.now().getTime() + 600_000)
  })
})
