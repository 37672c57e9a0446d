/**
 * An off-the-shelf relying party against the provider over real HTTP:
 * openid-client v6 runs discovery, authorization code with PKCE (S256) and
 * state and nonce checks, userinfo, refresh rotation, introspection,
 * revocation and RP-initiated logout, with client_secret_basic,
 * client_secret_post and a public client (`none`), and a client sending the
 * secret method it did not register. The browser (rp-fixtures.ts) is plain
 * fetch with a cookie jar: sign-in, authorize, the login page detour,
 * consent, and the redirect back. Nothing is special-cased for this
 * provider: whatever openid-client refuses is a provider bug.
 */
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browse, CALLBACK, location, LOGGED_OUT, register, serveProvider, signedUpBrowser, type AuthMethod, type ServedProvider } from './rp-fixtures.js'

let provider: ServedProvider
let issuer: string

beforeAll(async () => {
  // Strict reuse detection: these flows present a rotated refresh token again at once and expect the family's end.
  provider = await serveProvider({ refreshTokenReuseInterval: 0 })
  issuer = provider.issuer
})

afterAll(() => provider.close())

function clientAuth(method: AuthMethod, secret: string | undefined): oidc.ClientAuth {
  if (method === 'none') return oidc.None()
  return method === 'client_secret_post' ? oidc.ClientSecretPost(secret) : oidc.ClientSecretBasic(secret)
}

async function discover(clientId: string, method: AuthMethod, secret?: string) {
  return oidc.discovery(
    new URL(issuer),
    clientId,
    { redirect_uris: [CALLBACK], post_logout_redirect_uris: [LOGGED_OUT] },
    clientAuth(method, secret),
    // Plain HTTP on loopback only: the test server has no TLS.
    { execute: [oidc.allowInsecureRequests] },
  )
}

interface Pending {
  readonly url: URL
  readonly verifier: string
  readonly state: string
  readonly nonce: string
}

async function authorizationRequest(config: oidc.Configuration, scope: string, extra: Record<string, string> = {}): Promise<Pending> {
  const verifier = oidc.randomPKCECodeVerifier()
  const state = oidc.randomState()
  const nonce = oidc.randomNonce()
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  })
  return { url, verifier, state, nonce }
}

describe.each(['client_secret_basic', 'client_secret_post', 'none'] as const)('openid-client with %s', (method) => {
  it('discovery, code + PKCE, userinfo, refresh rotation, introspection, revocation, end-session', async () => {
    const { tab: owner } = await signedUpBrowser(provider)
    const registered = await register(owner, method)
    const config = await discover(registered.client_id, method, registered.client_secret)
    const metadata = config.serverMetadata()
    expect(metadata.issuer).toBe(issuer)
    expect(metadata.code_challenge_methods_supported).toEqual(['S256'])
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']),
    )
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true)

    // Another user, signed out: the login page detour, then consent.
    const { tab, email } = await signedUpBrowser(provider)
    await tab.json('/sign-out', {})
    const pending = await authorizationRequest(config, 'openid email profile offline_access', { prompt: 'consent' })
    const callback = await browse(tab, pending.url, { email })
    expect(callback.searchParams.get('iss')).toBe(issuer)

    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    })
    expect(tokens.token_type.toLowerCase()).toBe('bearer')
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'offline_access', 'openid', 'profile'])
    expect(tokens.refresh_token).toEqual(expect.any(String))
    const claims = tokens.claims()
    expect(claims).toMatchObject({ iss: issuer, aud: registered.client_id, nonce: pending.nonce })
    expect(claims?.auth_time).toEqual(expect.any(Number))

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub ?? '')
    expect(info).toMatchObject({ sub: claims?.sub, email, email_verified: false, name: 'Ada Lovelace' })

    /**
     * Whether an access token still works: introspection for a confidential
     * client; a public one cannot authenticate, so introspection refuses it
     * (RFC 7662 §2.1) and userinfo answers instead.
     */
    const isActive = async (token: string): Promise<boolean> => {
      if (method !== 'none') {
        const introspected = await oidc.tokenIntrospection(config, token)
        if (introspected.active) expect(introspected).toMatchObject({ client_id: registered.client_id, sub: claims?.sub })
        return introspected.active
      }
      await expect(oidc.tokenIntrospection(config, token)).rejects.toMatchObject({ error: 'invalid_client' })
      return oidc.fetchUserInfo(config, token, claims?.sub ?? '').then(
        () => true,
        (error: unknown) => {
          expect(error).toMatchObject({ status: 401 })
          return false
        },
      )
    }

    // Rotation: a new pair; the old refresh token is spent, and its reuse ends the family.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? '')
    expect(refreshed.refresh_token).toEqual(expect.any(String))
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    expect(await isActive(refreshed.access_token)).toBe(true)
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' })
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' })
    expect(await isActive(refreshed.access_token)).toBe(false)

    // A fresh authorization: consent is remembered, no page this time (no offline_access without prompt=consent).
    const grant = async () => {
      const request = await authorizationRequest(config, 'openid email')
      const url = await browse(tab, request.url)
      const checks = { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce }
      return { url, checks, tokens: await oidc.authorizationCodeGrant(config, url, checks) }
    }
    const second = await grant()
    expect(second.tokens.refresh_token).toBeUndefined()
    expect(await isActive(second.tokens.access_token)).toBe(true)
    // The same code again: refused, and what it issued is revoked (RFC 6749 §4.1.2).
    await expect(oidc.authorizationCodeGrant(config, second.url, second.checks)).rejects.toMatchObject({ error: 'invalid_grant' })
    expect(await isActive(second.tokens.access_token)).toBe(false)

    // Revocation (RFC 7009): the token stops working at once.
    const third = await grant()
    await oidc.tokenRevocation(config, third.tokens.access_token)
    expect(await isActive(third.tokens.access_token)).toBe(false)
    await expect(oidc.fetchUserInfo(config, third.tokens.access_token, oidc.skipSubjectCheck)).rejects.toMatchObject({ status: 401 })

    // RP-initiated logout: back to the registered address with the state; the session is gone.
    const logoutState = oidc.randomState()
    const endSession = oidc.buildEndSessionUrl(config, {
      id_token_hint: third.tokens.id_token ?? '',
      post_logout_redirect_uri: LOGGED_OUT,
      state: logoutState,
    })
    const loggedOut = await tab.send(endSession)
    expect(loggedOut.status).toBe(302)
    const back = location(loggedOut, provider.origin)
    expect(`${back.origin}${back.pathname}`).toBe(LOGGED_OUT)
    expect(back.searchParams.get('state')).toBe(logoutState)
    const session = await tab.send(`${issuer}/get-session`)
    expect(await session.json()).toBeNull()
  })
})

describe('openid-client configured with the secret method the client did not register', () => {
  it('client_secret_basic registered, client_secret_post sent: the code and the refresh work (the default accepts either)', async () => {
    const { tab } = await signedUpBrowser(provider)
    const registered = await register(tab, 'client_secret_basic')
    const config = await discover(registered.client_id, 'client_secret_post', registered.client_secret)
    const pending = await authorizationRequest(config, 'openid offline_access', { prompt: 'consent' })
    const callback = await browse(tab, pending.url)
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
    })
    expect(tokens.claims()?.aud).toBe(registered.client_id)
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? '')
    expect(refreshed.access_token).toEqual(expect.any(String))
  })
})

describe('openid-client refuses what it must', () => {
  it('a wrong PKCE verifier is invalid_grant; a confidential client without its secret is invalid_client', async () => {
    const { tab } = await signedUpBrowser(provider)
    const registered = await register(tab, 'client_secret_basic')
    const config = await discover(registered.client_id, 'client_secret_basic', registered.client_secret)
    const pending = await authorizationRequest(config, 'openid')
    const callback = await browse(tab, pending.url)
    await expect(
      oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        expectedState: pending.state,
        expectedNonce: pending.nonce,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' })

    const noSecret = await discover(registered.client_id, 'none')
    const retry = await authorizationRequest(noSecret, 'openid')
    const code = await browse(tab, retry.url)
    await expect(
      oidc.authorizationCodeGrant(noSecret, code, { pkceCodeVerifier: retry.verifier, expectedState: retry.state, expectedNonce: retry.nonce }),
    ).rejects.toMatchObject({ error: 'invalid_client' })
  })

  it('a redirect URI that differs by a trailing slash gets an error page, not a redirect', async () => {
    const { tab } = await signedUpBrowser(provider)
    const registered = await register(tab, 'client_secret_basic')
    const config = await discover(registered.client_id, 'client_secret_basic', registered.client_secret)
    const pending = await authorizationRequest(config, 'openid', { redirect_uri: `${CALLBACK}/` })
    const response = await tab.send(pending.url)
    expect(response.status).toBe(400)
    expect(response.headers.get('location')).toBeNull()
  })
})
