/**
 * The OpenID Connect protocol pieces on their own, against the tiny IdP of
 * oidc-fixtures.ts: discovery (issuer check, endpoint overrides and their URL
 * rule, the cache and what invalidates it) and the callback's exchange
 * (RFC 9207 `iss`, the IdP's error, client authentication, PKCE, the ID
 * Token's nonce, audience, issuer, expiry and signature, UserInfo and its
 * subject). The full browser flows are in oidc-flow.test.ts.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { discoverOidc, DISCOVERY_TTL_MS } from '../src/oidc/discovery.js'
import { exchangeCode } from '../src/oidc/exchange.js'
import type { SsoStateData } from '../src/oidc/state.js'
import type { OidcConfig } from '../src/types.js'
import { BASE, callbackURL, CLIENT, startFakeIdp } from './oidc-fixtures.js'

let idp: Awaited<ReturnType<typeof startFakeIdp>>

beforeAll(async () => {
  idp = await startFakeIdp()
})
afterAll(async () => {
  await idp.close()
})
beforeEach(() => {
  Object.assign(idp.behaviour, {
    advertiseIss: true,
    responseIss: 'issuer',
    error: null,
    user: { sub: 'user-1', email: 'ada@acme.test', email_verified: true, name: 'Ada Lovelace', groups: ['engineering'] },
    idTokenClaims: 'all',
    idTokenOverrides: {},
    signWithOtherKey: false,
    unsigned: false,
    documentIssuer: null,
    omitIdToken: false,
    userInfoSub: null,
  })
  idp.requests.length = 0
})

/** The wall clock, moved by hand: the IdP and oauth4webapi read real time. */
function shiftedClock() {
  let offset = 0
  return { now: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) }
}

async function context(trusted: readonly string[] = [idp.issuer]) {
  const clock = shiftedClock()
  const auth = createAuth({
    baseURL: BASE,
    secret: 'sso-test-secret-0123456789-abcdefghijklmnop',
    database: memoryAdapter(),
    logger: { disabled: true },
    clock,
    trustedOrigins: [...trusted],
  })
  const ctx = await auth.$context
  return { auth: ctx, clock, logger: ctx.logger, advance: clock.advance }
}

function config(extra: Partial<OidcConfig> = {}): OidcConfig {
  return { issuer: idp.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret, discoveryEndpoint: `${idp.issuer}/.well-known/openid-configuration`, ...extra }
}

const discoveries = () => idp.requests.filter((request) => request.path === '/.well-known/openid-configuration').length

describe('discovery', () => {
  it('reads the document through the safe fetch and keeps the issuer and endpoints it names', async () => {
    const ctx = await context()
    const result = await discoverOidc(ctx, config())
    expect(result).toMatchObject({
      ok: true,
      server: {
        issuer: idp.issuer,
        authorization_endpoint: `${idp.issuer}/authorize`,
        token_endpoint: `${idp.issuer}/token`,
        jwks_uri: `${idp.issuer}/jwks`,
        userinfo_endpoint: `${idp.issuer}/userinfo`,
        authorization_response_iss_parameter_supported: true,
      },
    })
  })

  it('refuses a document naming another issuer, with a message for the admin', async () => {
    idp.behaviour.documentIssuer = 'https://evil.test'
    const result = await discoverOidc(await context(), config())
    expect(result).toEqual({
      ok: false,
      reason: 'issuer_mismatch',
      message: `OIDC discovery failed: the document at ${idp.issuer}/.well-known/openid-configuration names the issuer https://evil.test, not ${idp.issuer}`,
    })
  })

  it('refuses a loopback IdP whose origin is not trusted, without fetching', async () => {
    const result = await discoverOidc(await context([]), config())
    expect(result).toMatchObject({ ok: false, reason: 'invalid_url' })
    expect(discoveries()).toBe(0)
  })

  it('refuses a discovery endpoint on a private address literal, even over https', async () => {
    const result = await discoverOidc(await context(), config({ discoveryEndpoint: 'https://169.254.169.254/.well-known/openid-configuration' }))
    expect(result).toMatchObject({ ok: false, reason: 'invalid_url' })
    expect(!result.ok && result.message).toContain('169.254.169.254')
  })

  it('answers invalid_document for a 404, and caches no failure', async () => {
    const ctx = await context()
    const result = await discoverOidc(ctx, config({ discoveryEndpoint: `${idp.issuer}/nothing-here` }))
    expect(result).toMatchObject({ ok: false, reason: 'invalid_document' })
    expect(!result.ok && result.message).toContain('HTTP 404')
  })

  it('lets given endpoints override discovered ones, each under the same URL rule', async () => {
    const ctx = await context()
    const overridden = await discoverOidc(ctx, config({ tokenEndpoint: 'https://tokens.acme.test/token', jwksEndpoint: `${idp.issuer}/jwks?v=2` }))
    expect(overridden).toMatchObject({ ok: true, server: { token_endpoint: 'https://tokens.acme.test/token', jwks_uri: `${idp.issuer}/jwks?v=2` } })
    const internal = await discoverOidc(ctx, config({ tokenEndpoint: 'http://10.0.0.5/token' }))
    expect(internal).toMatchObject({ ok: false, reason: 'invalid_url' })
    expect(!internal.ok && internal.message).toContain('token_endpoint http://10.0.0.5/token')
    const script = await discoverOidc(ctx, config({ authorizationEndpoint: 'javascript:alert(1)' }))
    expect(script).toMatchObject({ ok: false, reason: 'invalid_url' })
  })

  it('skipDiscovery: the given endpoints only, no request', async () => {
    const result = await discoverOidc(
      await context(),
      config({ skipDiscovery: true, authorizationEndpoint: `${idp.issuer}/authorize`, tokenEndpoint: `${idp.issuer}/token`, jwksEndpoint: `${idp.issuer}/jwks` }),
    )
    expect(result).toMatchObject({ ok: true, server: { issuer: idp.issuer, token_endpoint: `${idp.issuer}/token` } })
    expect(discoveries()).toBe(0)
    const incomplete = await discoverOidc(await context(), config({ skipDiscovery: true, authorizationEndpoint: `${idp.issuer}/authorize` }))
    expect(incomplete).toMatchObject({ ok: false, reason: 'incomplete' })
  })

  it('caches a document for 10 minutes per configuration; a changed configuration or `fresh` fetches again', async () => {
    const ctx = await context()
    await discoverOidc(ctx, config())
    await discoverOidc(ctx, config())
    expect(discoveries()).toBe(1)
    await discoverOidc(ctx, config({ userInfoEndpoint: `${idp.issuer}/userinfo?v=2` }))
    expect(discoveries()).toBe(2)
    await discoverOidc(ctx, config(), { fresh: true })
    expect(discoveries()).toBe(3)
    ctx.advance(DISCOVERY_TTL_MS - 1000)
    await discoverOidc(ctx, config())
    expect(discoveries()).toBe(3)
    ctx.advance(2000)
    await discoverOidc(ctx, config())
    expect(discoveries()).toBe(4)
    // Another auth instance has its own cache (its trusted origins may differ).
    await discoverOidc(await context(), config())
    expect(discoveries()).toBe(5)
  })
})

describe('the callback exchange', () => {
  async function authorize(ctx: Awaited<ReturnType<typeof context>>, extra: Partial<OidcConfig> = {}) {
    const oidc = config(extra)
    const discovered = await discoverOidc(ctx, oidc)
    if (!discovered.ok) throw new Error(discovered.message)
    const data: SsoStateData = {
      providerId: 'acme',
      providerVersion: 'v',
      landing: { callbackURL: '/dashboard', errorURL: null, newUserURL: null, requestSignUp: false },
      codeVerifier: oauth.generateRandomCodeVerifier(),
      nonce: oauth.generateRandomNonce(),
      expiresAt: Date.now() + 600_000,
    }
    const state = oauth.generateRandomState()
    const url = new URL(discovered.server.authorization_endpoint as string)
    url.searchParams.set('redirect_uri', callbackURL('acme'))
    url.searchParams.set('state', state)
    url.searchParams.set('nonce', data.nonce)
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(data.codeVerifier))
    const response = await fetch(url, { redirect: 'manual' })
    const params = new URL(response.headers.get('location') as string).searchParams
    return { params, run: (changed = params) => exchangeCode(ctx, oidc, discovered.server, changed, { state, data, redirectURI: callbackURL('acme') }) }
  }

  it('redeems the code with client_secret_basic and PKCE, and answers the verified ID Token claims', async () => {
    const ctx = await context()
    const { run } = await authorize(ctx)
    const result = await run()
    expect(result).toMatchObject({ ok: true, claims: { sub: 'user-1', email: 'ada@acme.test', email_verified: true, iss: idp.issuer, aud: CLIENT.id } })
    const token = idp.requests.find((request) => request.path === '/token')
    expect(token?.headers.authorization).toMatch(/^Basic /)
    expect(token?.params.get('client_secret')).toBeNull()
    expect(token?.params.get('code_verifier')).toMatch(/.{43,}/)
    // Everything the ID Token carries: UserInfo is not asked.
    expect(idp.requests.some((request) => request.path === '/userinfo')).toBe(false)
  })

  it('client_secret_post when configured', async () => {
    const ctx = await context()
    const { run } = await authorize(ctx, { tokenEndpointAuthentication: 'client_secret_post' })
    expect((await run()).ok).toBe(true)
    const token = idp.requests.find((request) => request.path === '/token')
    expect(token?.headers.authorization).toBeUndefined()
    expect(token?.params.get('client_secret')).toBe(CLIENT.secret)
  })

  it('RFC 9207: a wrong iss is refused before the code is redeemed; an absent one too when advertised', async () => {
    const ctx = await context()
    idp.behaviour.responseIss = 'https://other-idp.test'
    expect(await (await authorize(ctx)).run()).toEqual({ ok: false, reason: 'issuer_mismatch' })
    idp.behaviour.responseIss = 'absent'
    expect(await (await authorize(ctx)).run()).toEqual({ ok: false, reason: 'issuer_mismatch' })
    expect(idp.requests.some((request) => request.path === '/token')).toBe(false)
  })

  it('RFC 9207: an absent iss is tolerated when the IdP does not advertise it, a wrong one still refused', async () => {
    idp.behaviour.advertiseIss = false
    idp.behaviour.responseIss = 'absent'
    expect((await (await authorize(await context())).run()).ok).toBe(true)
    idp.behaviour.responseIss = 'https://other-idp.test'
    expect(await (await authorize(await context())).run()).toEqual({ ok: false, reason: 'issuer_mismatch' })
  })

  it("passes the IdP's error on when it is a plain code", async () => {
    idp.behaviour.error = 'access_denied'
    expect(await (await authorize(await context())).run()).toEqual({ ok: false, reason: 'provider_error', error: 'access_denied' })
    idp.behaviour.error = 'x<script>'
    expect(await (await authorize(await context())).run()).toEqual({ ok: false, reason: 'provider_error', error: 'invalid_callback_request' })
  })

  it('refuses a response whose state is not the flow’s', async () => {
    const { params, run } = await authorize(await context())
    const forged = new URLSearchParams(params)
    forged.set('state', 'another-state')
    expect(await run(forged)).toEqual({ ok: false, reason: 'invalid_callback_request' })
  })

  it.each([
    ['a wrong nonce', { nonce: 'nonce-of-another-sign-in' }],
    ['another audience', { aud: 'another-client' }],
    ['several audiences without azp', { aud: [CLIENT.id, 'another-client'] }],
    ['another azp', { azp: 'another-client' }],
    ['another issuer', { iss: 'https://other-idp.test' }],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 }],
    ['no sub', { sub: undefined }],
  ])('refuses an ID Token with %s', async (_name, overrides) => {
    idp.behaviour.idTokenOverrides = overrides
    expect(await (await authorize(await context())).run()).toEqual({ ok: false, reason: 'invalid_id_token' })
  })

  it('refuses an ID Token signed by a key the JWKS does not hold (same kid), or unsigned', async () => {
    idp.behaviour.signWithOtherKey = true
    expect(await (await authorize(await context())).run()).toEqual({ ok: false, reason: 'invalid_id_token' })
    idp.behaviour.signWithOtherKey = false
    idp.behaviour.unsigned = true
    expect(await (await authorize(await context())).run()).toEqual({ ok: false, reason: 'invalid_id_token' })
  })

  it('refuses a token response without an ID Token', async () => {
    idp.behaviour.omitIdToken = true
    expect(await (await authorize(await context())).run()).toEqual({ ok: false, reason: 'invalid_id_token' })
  })

  it('refuses a code the token endpoint does not redeem (PKCE verifier of another flow)', async () => {
    const ctx = await context()
    const first = await authorize(ctx)
    const second = await authorize(ctx)
    // The second flow's code with the first flow's state, verifier and nonce.
    const swapped = new URLSearchParams(first.params)
    swapped.set('code', second.params.get('code') as string)
    expect(await first.run(swapped)).toEqual({ ok: false, reason: 'invalid_code' })
  })

  it('reads UserInfo when the ID Token lacks a mapped claim, keeping the ID Token’s claims', async () => {
    idp.behaviour.idTokenClaims = 'sub-only'
    const result = await (await authorize(await context())).run()
    expect(result).toMatchObject({ ok: true, claims: { sub: 'user-1', email: 'ada@acme.test', name: 'Ada Lovelace', aud: CLIENT.id } })
    const userinfo = idp.requests.find((request) => request.path === '/userinfo')
    expect(userinfo?.headers.authorization).toMatch(/^Bearer at-/)
  })

  it('refuses UserInfo about another subject than the ID Token’s', async () => {
    idp.behaviour.idTokenClaims = 'sub-only'
    idp.behaviour.userInfoSub = 'user-2'
    expect(await (await authorize(await context())).run()).toEqual({ ok: false, reason: 'unable_to_get_user_info' })
  })
})
