/**
 * Relying-party libraries written independently of openid-client (whose
 * author also wrote oauth4webapi and Auth.js's OAuth core), against the
 * provider over real HTTP, each with the provider's default options:
 *
 * - passport-openidconnect 0.1 (through node-oauth) sends the client secret
 *   in the form body and no PKCE, as many confidential clients do;
 * - arctic's generic `OAuth2Client` sends the secret in a Basic header, with
 *   PKCE S256; jose checks its ID Token, which arctic leaves unverified.
 *
 * Each runs discovery, the login detour, consent, the code exchange,
 * userinfo and a refresh, for a client registered with client_secret_basic
 * and one registered with client_secret_post: whichever the library sends,
 * the provider accepts either secret method (docs/oidc-provider.md#client-authentication),
 * and leaves PKCE to confidential clients (docs/oidc-provider.md#pkce).
 */
import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client, OAuth2RequestError } from 'arctic'
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose'
import { Strategy, type Profile, type StrategyRequest } from 'passport-openidconnect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browse, CALLBACK, register, serveProvider, signedUpBrowser, type ServedProvider } from './rp-fixtures.js'

interface Discovery {
  readonly issuer: string
  readonly authorization_endpoint: string
  readonly token_endpoint: string
  readonly userinfo_endpoint: string
  readonly revocation_endpoint: string
  readonly jwks_uri: string
}

let provider: ServedProvider
let discovery: Discovery

beforeAll(async () => {
  // Strict reuse detection: these flows present a rotated refresh token again at once and expect the family's end.
  provider = await serveProvider({ refreshTokenReuseInterval: 0 })
  // Neither library reads discovery documents: the relying party configures them from it.
  const response = await fetch(`${provider.issuer}/.well-known/openid-configuration`)
  expect(response.status).toBe(200)
  discovery = (await response.json()) as Discovery
  expect(discovery.issuer).toBe(provider.issuer)
})

afterAll(() => provider.close())

/** The ID Token's signature against the published keys, and its issuer, audience and nonce. */
async function verifiedIdToken(idToken: string, clientId: string, nonce: string | null): Promise<JWTPayload> {
  const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(discovery.jwks_uri)), { issuer: provider.issuer, audience: clientId })
  expect(payload.nonce).toBe(nonce)
  return payload
}

async function userinfo(accessToken: string): Promise<Response> {
  return fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}` } })
}

/** A user who has an account but is signed out: the authorization takes the login detour. */
async function signedOutUser() {
  const { tab, email } = await signedUpBrowser(provider)
  await tab.json('/sign-out', {})
  return { tab, email }
}

type Outcome = { readonly kind: 'redirect'; readonly url: string } | { readonly kind: 'success'; readonly user: PassportUser } | { readonly kind: 'fail'; readonly challenge: unknown }

interface PassportUser {
  readonly userinfo: Profile | undefined
  readonly idToken: string
  readonly accessToken: string
  readonly refreshToken: string | undefined
}

/**
 * One pass of the strategy over a request, with the actions Passport's
 * `authenticate` middleware would give it (an object inheriting from the
 * strategy, as Passport itself makes).
 */
function runStrategy(strategy: Strategy, req: StrategyRequest): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const action: Strategy = Object.create(strategy)
    action.redirect = (url) => resolve({ kind: 'redirect', url })
    action.success = (user) => resolve({ kind: 'success', user: user as PassportUser })
    action.fail = (challenge) => resolve({ kind: 'fail', challenge })
    action.error = reject
    action.pass = () => reject(new Error('the strategy passed'))
    action.authenticate(req, {})
  })
}

/** node-oauth's refresh_token grant, through the client the strategy exposes to subclasses. */
function passportRefresh(strategy: Strategy, refreshToken: string): Promise<{ accessToken: string; refreshToken: string | undefined }> {
  return new Promise((resolve, reject) => {
    strategy._oauth2.getOAuthAccessToken(refreshToken, { grant_type: 'refresh_token' }, (error, accessToken, rotated) => {
      if (error) reject(Object.assign(new Error(`refresh failed: ${error.statusCode}`), error))
      else resolve({ accessToken: accessToken ?? '', refreshToken: rotated })
    })
  })
}

describe.each(['client_secret_basic', 'client_secret_post'] as const)('passport-openidconnect, client registered with %s', (method) => {
  it('secret in the body, no PKCE: discovery, login, consent, code, ID Token, userinfo, refresh', async () => {
    const { tab: owner } = await signedUpBrowser(provider)
    const registered = await register(owner, method)
    const strategy = new Strategy(
      {
        issuer: discovery.issuer,
        authorizationURL: discovery.authorization_endpoint,
        tokenURL: discovery.token_endpoint,
        userInfoURL: discovery.userinfo_endpoint,
        clientID: registered.client_id,
        clientSecret: registered.client_secret ?? '',
        callbackURL: CALLBACK,
        scope: ['email', 'profile', 'offline_access'],
        prompt: 'consent',
        nonce: true,
      },
      (_issuer, userinfoProfile, _idProfile, _context, idToken, accessToken, refreshToken, _params, done) =>
        done(null, { userinfo: userinfoProfile, idToken, accessToken, refreshToken }),
    )
    // The relying party's own session, where the strategy keeps state and nonce between the two legs.
    const session: Record<string, unknown> = {}
    const start = await runStrategy(strategy, { query: {}, session, headers: {}, url: '/login' })
    if (start.kind !== 'redirect') throw new Error(`expected a redirect, got ${start.kind}`)
    const authorizationURL = new URL(start.url)
    expect(authorizationURL.searchParams.get('code_challenge')).toBeNull()

    const { tab, email } = await signedOutUser()
    const callback = await browse(tab, authorizationURL, { email })
    expect(callback.searchParams.get('iss')).toBe(provider.issuer)
    const finished = await runStrategy(strategy, { query: Object.fromEntries(callback.searchParams), session, headers: {}, url: `/callback${callback.search}` })
    if (finished.kind !== 'success') throw new Error(`expected success, got ${JSON.stringify(finished)}`)
    const { user } = finished

    const claims = await verifiedIdToken(user.idToken, registered.client_id, authorizationURL.searchParams.get('nonce'))
    expect(user.userinfo?.id).toBe(claims.sub)
    expect(user.userinfo?._json).toMatchObject({ sub: claims.sub, email, email_verified: false, name: 'Ada Lovelace' })
    expect(user.refreshToken).toEqual(expect.any(String))

    const refreshed = await passportRefresh(strategy, user.refreshToken ?? '')
    expect(refreshed.refreshToken).toEqual(expect.any(String))
    expect(refreshed.refreshToken).not.toBe(user.refreshToken)
    expect((await userinfo(refreshed.accessToken)).status).toBe(200)
    // The spent refresh token is reuse (RFC 9700 §4.14.2).
    await expect(passportRefresh(strategy, user.refreshToken ?? '')).rejects.toMatchObject({ statusCode: 400, data: expect.stringContaining('invalid_grant') })
  })
})

describe.each(['client_secret_basic', 'client_secret_post'] as const)("arctic's OAuth2Client, client registered with %s", (method) => {
  it('secret in a Basic header, PKCE S256: discovery, login, consent, code, ID Token, userinfo, refresh, revocation', async () => {
    const { tab: owner } = await signedUpBrowser(provider)
    const registered = await register(owner, method)
    const client = new OAuth2Client(registered.client_id, registered.client_secret ?? null, CALLBACK)
    const state = generateState()
    const verifier = generateCodeVerifier()
    const nonce = generateState()
    const authorizationURL = client.createAuthorizationURLWithPKCE(discovery.authorization_endpoint, state, CodeChallengeMethod.S256, verifier, [
      'openid',
      'email',
      'profile',
      'offline_access',
    ])
    authorizationURL.searchParams.set('nonce', nonce)
    authorizationURL.searchParams.set('prompt', 'consent')

    const { tab, email } = await signedOutUser()
    const callback = await browse(tab, authorizationURL, { email })
    expect(callback.searchParams.get('state')).toBe(state)
    expect(callback.searchParams.get('iss')).toBe(provider.issuer)
    const tokens = await client.validateAuthorizationCode(discovery.token_endpoint, callback.searchParams.get('code') ?? '', verifier)
    expect(tokens.tokenType().toLowerCase()).toBe('bearer')
    expect(tokens.scopes().sort()).toEqual(['email', 'offline_access', 'openid', 'profile'])

    const claims = await verifiedIdToken(tokens.idToken(), registered.client_id, nonce)
    const info = await userinfo(tokens.accessToken())
    expect(info.status).toBe(200)
    expect(await info.json()).toMatchObject({ sub: claims.sub, email, email_verified: false, name: 'Ada Lovelace' })

    const refreshed = await client.refreshAccessToken(discovery.token_endpoint, tokens.refreshToken(), [])
    expect(refreshed.refreshToken()).not.toBe(tokens.refreshToken())
    expect((await userinfo(refreshed.accessToken())).status).toBe(200)
    // Revoking the refresh token ends its family (RFC 7009 §2.1).
    await client.revokeToken(discovery.revocation_endpoint, refreshed.refreshToken())
    expect((await userinfo(refreshed.accessToken())).status).toBe(401)
    const spent = await client.refreshAccessToken(discovery.token_endpoint, refreshed.refreshToken(), []).catch((error: unknown) => error)
    expect(spent).toBeInstanceOf(OAuth2RequestError)
    expect(spent).toMatchObject({ code: 'invalid_grant' })
  })
})
