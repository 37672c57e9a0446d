/**
 * The behaviours the OpenID Connect Basic OP and Config OP conformance plans
 * check (docs/oidc-provider.md#conformance), each through `auth.handler`:
 * authorization parameters the provider does not use are ignored,
 * `id_token_hint` names the expected user, registered redirect URIs with a
 * query, form-encoded Basic credentials, the ID Token's audience, `azp`,
 * `kid`, `auth_time` and `nonce`, userinfo's token methods and challenges,
 * `no-store` on token errors, codes that expire, `state` and `iss` on every
 * authorization response, and the discovery issuer.
 */
import { decodeProtectedHeader } from 'jose'
import { describe, expect, it } from 'vitest'
import { cookieHeader } from '../../core/test/accounts.js'
import { request } from '../../core/test/helpers.js'
import {
  authorizeCode,
  authorizeQuery,
  basic,
  CALLBACK,
  consentedSetup,
  createClient,
  getAuthorize,
  ISSUER,
  location,
  LOGIN_PAGE,
  newUser,
  postConsent,
  postForm,
  providerAuth,
  redeem,
  tokenRequest,
  userinfo,
  verifyIdToken,
  type ProviderAuth,
  type TestClient,
  type TestUser,
} from './fixtures.js'

/** A code for `user`, redeemed: the token reply's body. */
async function tokensFor(auth: ProviderAuth, user: TestUser, client: TestClient, overrides: Record<string, string | undefined> = {}) {
  const { code, verifier } = await authorizeCode(auth, user, client, overrides)
  const reply = await redeem(auth, client, code, verifier)
  expect(reply.status).toBe(200)
  return reply.body
}

describe('authorization request parameters', () => {
  it('ignores parameters it does not use, and accepts display, claims_locales, acr_values, ui_locales, login_hint and claims', async () => {
    const auth = providerAuth()
    const { user, client } = await consentedSetup(auth)
    const { code, verifier, nonce } = await authorizeCode(auth, user, client, {
      display: 'popup',
      claims_locales: 'fr-CA fr en',
      acr_values: 'urn:mace:incommon:iap:silver',
      ui_locales: 'de',
      login_hint: user.email,
      claims: '{"userinfo":{"email":{"essential":true}}}',
      vendor_extension: 'anything',
    })
    const reply = await redeem(auth, client, code, verifier)
    expect(reply.status).toBe(200)
    expect((await verifyIdToken(auth, reply.body.id_token, client.clientId)).nonce).toBe(nonce)
  })

  it('id_token_hint: the signed-in user passes prompt=none; another user is login_required; a forged hint is invalid_request', async () => {
    const auth = providerAuth()
    const { user, client } = await consentedSetup(auth)
    const { id_token: idToken } = await tokensFor(auth, user, client)

    // The user the hint names, with consent remembered: straight back with a code.
    const same = await getAuthorize(auth, authorizeQuery(client, { prompt: 'none', id_token_hint: idToken }).query, user.cookie)
    expect(location(same).searchParams.get('code')).toEqual(expect.any(String))

    // Someone else is signed in in this browser.
    const other = await newUser(auth, 'Grace Hopper')
    const { query, state } = authorizeQuery(client, { prompt: 'none', id_token_hint: idToken })
    const refused = location(await getAuthorize(auth, query, other.cookie))
    expect(refused.origin + refused.pathname).toBe(CALLBACK)
    expect(refused.searchParams.get('error')).toBe('login_required')
    expect(refused.searchParams.get('state')).toBe(state)
    expect(refused.searchParams.get('iss')).toBe(ISSUER)
    expect(refused.searchParams.get('code')).toBeNull()

    // Without prompt=none the other user is sent to sign in instead.
    const login = location(await getAuthorize(auth, authorizeQuery(client, { id_token_hint: idToken }).query, other.cookie))
    expect(login.origin + login.pathname).toBe(LOGIN_PAGE)

    // A hint this provider did not sign, or signed for another client.
    const [header, payload] = String(idToken).split('.')
    const forged = location(await getAuthorize(auth, authorizeQuery(client, { id_token_hint: `${header}.${payload}.AAAA` }).query, user.cookie))
    expect(forged.searchParams.get('error')).toBe('invalid_request')
    const elsewhere = await createClient(auth)
    const foreign = await getAuthorize(auth, authorizeQuery(elsewhere, { id_token_hint: idToken, prompt: 'none' }).query, user.cookie)
    expect(location(foreign).searchParams.get('error')).toBe('invalid_request')
  })

  it('id_token_hint across sign-in: the hinted user signing in continues; someone else signing in is login_required', async () => {
    const auth = providerAuth()
    const { user, client } = await consentedSetup(auth)
    const { id_token: idToken } = await tokensFor(auth, user, client)
    const other = await newUser(auth, 'Grace Hopper')

    async function signInAfterLoginPage(email: string) {
      const { query, state } = authorizeQuery(client, { id_token_hint: idToken })
      const toLogin = await getAuthorize(auth, query, other.cookie)
      expect(location(toLogin).origin + location(toLogin).pathname).toBe(LOGIN_PAGE)
      const signIn = await auth.handler(
        request('/api/auth/sign-in/email', {
          json: { email, password: 'correct horse battery' },
          headers: { origin: 'http://localhost:3000', cookie: cookieHeader(toLogin, other.cookie) },
        }),
      )
      expect(signIn.status).toBe(200)
      const body = (await signIn.json()) as { url: string }
      return { next: new URL(body.url), state }
    }

    const wrong = await signInAfterLoginPage(other.email)
    expect(wrong.next.searchParams.get('error')).toBe('login_required')
    expect(wrong.next.searchParams.get('state')).toBe(wrong.state)
    const right = await signInAfterLoginPage(user.email)
    expect(right.next.origin + right.next.pathname).toBe(CALLBACK)
    expect(right.next.searchParams.get('code')).toEqual(expect.any(String))
  })

  it('a redirect URI registered with a query works when sent exactly, keeps its query byte for byte, and a different query is refused', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const registered = `${CALLBACK}?tenant=a%20b&x=%7E`
    const client = await createClient(auth, { redirectURLs: [registered], skipConsent: true })
    const { query, verifier, state } = authorizeQuery(client, { redirect_uri: registered })
    const target = location(await getAuthorize(auth, query, user.cookie)).href
    expect(target.startsWith(`${registered}&code=`)).toBe(true)
    const params = new URL(target).searchParams
    expect(params.get('tenant')).toBe('a b')
    expect(params.get('state')).toBe(state)
    const code = params.get('code') ?? ''
    const reply = await tokenRequest(auth, client, { grant_type: 'authorization_code', code, redirect_uri: registered, code_verifier: verifier })
    expect(reply.status).toBe(200)

    for (const near of [`${CALLBACK}?tenant=c`, `${CALLBACK}?tenant=a+b&x=%7E`, `${registered}&extra=1`, CALLBACK]) {
      const response = await getAuthorize(auth, authorizeQuery(client, { redirect_uri: near }).query, user.cookie)
      expect(response.status).toBe(400)
      expect(response.headers.get('location')).toBeNull()
    }
  })

  it('state comes back exactly, special characters included, on success, error and denial', async () => {
    const auth = providerAuth()
    const { user, client } = await consentedSetup(auth)
    const state = 'a b&c=d/é+%25%?#x'
    const success = await authorizeCode(auth, user, client, { state })
    expect(success.redirect.searchParams.get('state')).toBe(state)
    expect(success.redirect.searchParams.get('iss')).toBe(ISSUER)

    const error = location(await getAuthorize(auth, authorizeQuery(client, { state, scope: 'openid unknown' }).query, user.cookie))
    expect(error.searchParams.get('error')).toBe('invalid_scope')
    expect(error.searchParams.get('state')).toBe(state)
    expect(error.searchParams.get('iss')).toBe(ISSUER)

    const other = await createClient(auth)
    const toConsent = await getAuthorize(auth, authorizeQuery(other, { state }).query, user.cookie)
    const denied = await postConsent(auth, cookieHeader(toConsent, user.cookie), false, location(toConsent).searchParams.get('consent_id') ?? '')
    const back = new URL(String(denied.body.redirectURI))
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('state')).toBe(state)
    expect(back.searchParams.get('iss')).toBe(ISSUER)
  })

  it('iss is on every authorization response: code, login_required, consent_required', async () => {
    const auth = providerAuth()
    const { user, client } = await consentedSetup(auth)
    expect((await authorizeCode(auth, user, client)).redirect.searchParams.get('iss')).toBe(ISSUER)
    const loginRequired = location(await getAuthorize(auth, authorizeQuery(client, { prompt: 'none' }).query, ''))
    expect([loginRequired.searchParams.get('error'), loginRequired.searchParams.get('iss')]).toEqual(['login_required', ISSUER])
    const wider = location(await getAuthorize(auth, authorizeQuery(client, { prompt: 'none', scope: 'openid profile email offline_access' }).query, user.cookie))
    // offline_access is dropped without prompt=consent, so the remembered scopes still cover the request.
    expect(wider.searchParams.get('code')).toEqual(expect.any(String))
    const fresh = await createClient(auth)
    const consentRequired = location(await getAuthorize(auth, authorizeQuery(fresh, { prompt: 'none' }).query, user.cookie))
    expect([consentRequired.searchParams.get('error'), consentRequired.searchParams.get('iss')]).toEqual(['consent_required', ISSUER])
  })
})

describe('client authentication', () => {
  // RFC 6749 §2.3.1: id and secret are application/x-www-form-urlencoded before they are joined and base64-encoded.
  const clientId = 'dash board:1'
  const clientSecret = 'a:b%c+d e/é'
  const trusted = { clientId, clientSecret, name: 'Dashboard', type: 'web' as const, redirectURLs: [CALLBACK], skipConsent: true }

  function formEncoded(value: string): string {
    return new URLSearchParams({ v: value }).toString().slice(2)
  }

  it.each([
    ['form encoding (space as +)', `Basic ${Buffer.from(`${formEncoded(clientId)}:${formEncoded(clientSecret)}`).toString('base64')}`],
    ['percent encoding (space as %20)', basic(clientId, clientSecret)],
  ])('client_secret_basic decodes %s: a secret with :, %%, + and a space', async (_, authorization) => {
    const auth = providerAuth({ trustedClients: [trusted] })
    const user = await newUser(auth)
    const client = { clientId, clientSecret }
    const { code, verifier } = await authorizeCode(auth, user, client)
    const reply = await postForm(auth, '/oauth2/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier }, { authorization })
    expect(reply.status).toBe(200)
    expect(reply.body.access_token).toEqual(expect.any(String))
  })

  it('the secret sent without its encoding is not the secret', async () => {
    const auth = providerAuth({ trustedClients: [trusted] })
    const user = await newUser(auth)
    const { code, verifier } = await authorizeCode(auth, user, { clientId, clientSecret })
    // `+` decodes to a space and `%c+` is no escape at all: either way not the registered secret.
    const raw = `Basic ${Buffer.from(`${formEncoded(clientId)}:${clientSecret}`).toString('base64')}`
    const reply = await postForm(auth, '/oauth2/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier }, { authorization: raw })
    expect(reply.status).toBe(401)
    expect(reply.body.error).toBe('invalid_client')
    expect(reply.headers.get('cache-control')).toBe('no-store')
  })
})

describe('the ID Token and userinfo', () => {
  it('aud is the client_id, azp is present, the header kid is in the JWKS, auth_time is present when max_age was asked', async () => {
    const auth = providerAuth()
    const { user, client } = await consentedSetup(auth)
    const tokens = await tokensFor(auth, user, client, { max_age: '3600' })
    const claims = await verifyIdToken(auth, tokens.id_token, client.clientId)
    expect(claims.aud).toBe(client.clientId)
    expect(claims.azp).toBe(client.clientId)
    expect(claims.iss).toBe(ISSUER)
    expect(claims.auth_time).toBe(Math.floor(auth.clock.now().getTime() / 1000))
    const header = decodeProtectedHeader(tokens.id_token)
    expect(header.alg).toBe('RS256')
    const { keys } = (await (await auth.handler(request('/api/auth/jwks'))).json()) as { keys: { kid: string; alg: string }[] }
    expect(keys.find((key) => key.kid === header.kid)).toMatchObject({ alg: 'RS256', use: 'sig' })
  })

  it('the code is bound to its nonce; a request without nonce gets an ID Token without one', async () => {
    const auth = providerAuth()
    const { user, client } = await consentedSetup(auth)
    const withNonce = await tokensFor(auth, user, client, { nonce: 'n-0S6_WzA2Mj' })
    expect((await verifyIdToken(auth, withNonce.id_token, client.clientId)).nonce).toBe('n-0S6_WzA2Mj')
    const without = await tokensFor(auth, user, client, { nonce: undefined })
    expect((await verifyIdToken(auth, without.id_token, client.clientId)).nonce).toBeUndefined()
  })

  it('userinfo: sub equals the ID Token sub; the token by header or form body, never the query, never both', async () => {
    const auth = providerAuth()
    const { user, client } = await consentedSetup(auth)
    const tokens = await tokensFor(auth, user, client)
    const { sub } = await verifyIdToken(auth, tokens.id_token, client.clientId)
    const byHeader = await userinfo(auth, tokens.access_token)
    expect(byHeader.status).toBe(200)
    expect(byHeader.body.sub).toBe(sub)
    expect(byHeader.headers.get('content-type')).toContain('application/json')

    const byBody = await postForm(auth, '/oauth2/userinfo', { access_token: tokens.access_token })
    expect(byBody.status).toBe(200)
    expect(byBody.body.sub).toBe(sub)

    const byQuery = await auth.handler(request(`/api/auth/oauth2/userinfo?access_token=${tokens.access_token}`))
    expect(byQuery.status).toBe(401)
    expect(byQuery.headers.get('www-authenticate')).toBe('Bearer')

    const both = await postForm(auth, '/oauth2/userinfo', { access_token: tokens.access_token }, { authorization: `Bearer ${tokens.access_token}` })
    expect(both.status).toBe(400)
    expect(both.body.error).toBe('invalid_request')
    expect(both.headers.get('www-authenticate')).toBe('Bearer error="invalid_request"')
  })

  it('without openid: OAuth tokens but no ID Token, and userinfo is insufficient_scope with an RFC 6750 challenge', async () => {
    const auth = providerAuth()
    const { user, client } = await consentedSetup(auth)
    const tokens = await tokensFor(auth, user, client, { scope: 'profile email' })
    expect(tokens).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'profile email' })
    const reply = await userinfo(auth, tokens.access_token)
    expect(reply.status).toBe(403)
    expect(reply.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="openid"')
  })
})

describe('token endpoint errors', () => {
  it('every error answer carries Cache-Control: no-store and Pragma: no-cache', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const replies = [
      await tokenRequest(auth, client, { grant_type: 'password', username: 'a', password: 'b' }),
      await tokenRequest(auth, client, { grant_type: 'authorization_code', code: 'x'.repeat(32), redirect_uri: CALLBACK, code_verifier: 'v'.repeat(43) }),
      await postForm(auth, '/oauth2/token', { grant_type: 'authorization_code', code: 'x' }, { authorization: basic(client.clientId, 'wrong') }),
      await tokenRequest(auth, client, { grant_type: 'authorization_code' }),
    ]
    expect(replies.map((reply) => [reply.status, reply.body.error])).toEqual([
      [400, 'unsupported_grant_type'],
      [400, 'invalid_grant'],
      [401, 'invalid_client'],
      [400, 'invalid_request'],
    ])
    for (const reply of replies) {
      expect(reply.headers.get('cache-control')).toBe('no-store')
      expect(reply.headers.get('pragma')).toBe('no-cache')
    }
  })

  it('a code past its 600 s is invalid_grant; one second before, it works', async () => {
    const auth = providerAuth()
    const { user, client } = await consentedSetup(auth)
    const late = await authorizeCode(auth, user, client)
    auth.clock.advance(600_000)
    const expired = await redeem(auth, client, late.code, late.verifier)
    expect([expired.status, expired.body.error]).toEqual([400, 'invalid_grant'])
    const early = await authorizeCode(auth, user, client)
    auth.clock.advance(599_000)
    expect((await redeem(auth, client, early.code, early.verifier)).status).toBe(200)
  })
})

describe('discovery', () => {
  it.each([
    ['the default base URL', undefined],
    ['a base URL given with a trailing slash', 'http://localhost:3000/'],
  ])('the issuer is the exact iss of the tokens, without a trailing slash: %s', async (_, baseURL) => {
    const auth = providerAuth({}, baseURL === undefined ? {} : { baseURL })
    const document = (await (await auth.handler(request('/api/auth/.well-known/openid-configuration'))).json()) as Record<string, unknown>
    expect(document.issuer).toBe(ISSUER)
    expect(String(document.issuer).endsWith('/')).toBe(false)
    const { user, client } = await consentedSetup(auth)
    const tokens = await tokensFor(auth, user, client)
    expect((await verifyIdToken(auth, tokens.id_token, client.clientId)).iss).toBe(document.issuer)
    // The Config OP checks: the required fields are there, and only what is supported is claimed.
    expect(document).toMatchObject({
      authorization_endpoint: `${ISSUER}/oauth2/authorize`,
      token_endpoint: `${ISSUER}/oauth2/token`,
      userinfo_endpoint: `${ISSUER}/oauth2/userinfo`,
      jwks_uri: `${ISSUER}/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      claims_parameter_supported: false,
    })
    expect(document.scopes_supported).toContain('openid')
  })
})
