/**
 * An off-the-shelf relying party against the provider over real HTTP:
 * openid-client v6 runs discovery, authorization code with PKCE (S256) and
 * state and nonce checks, userinfo, refresh rotation, introspection,
 * revocation and RP-initiated logout, with client_secret_basic,
 * client_secret_post and a public client (`none`). The browser is plain fetch
 * with a cookie jar: sign-in, authorize, the login page detour, consent, and
 * the redirect back. Nothing is special-cased for this provider: whatever
 * openid-client refuses is a provider bug.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { toNodeHandler } from '@gatehouse/core/node'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { oidcProvider } from '../src/index.js'

const PASSWORD = 'correct horse battery'
const SECRET = 'openid-client-test-secret-0123456789-abcdef'

let server: Server
let origin: string
let issuer: string
let auth: ReturnType<typeof makeAuth>

function makeAuth(base: string) {
  return createAuth({
    baseURL: base,
    secret: SECRET,
    database: memoryAdapter(),
    logger: { disabled: true },
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    plugins: [oidcProvider({ loginPage: `${base}/login`, consentPage: `${base}/consent` })],
  })
}

beforeAll(async () => {
  server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  issuer = `${origin}/api/auth`
  auth = makeAuth(origin)
  const handle = toNodeHandler(auth)
  server.on('request', (req, res) => void handle(req, res))
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

/** A browser: cookies kept per name, redirects left to the caller, the page's Origin on POSTs. */
function browser() {
  const jar = new Map<string, string>()
  const send = async (url: string | URL, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers)
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '))
    if (init.method && init.method !== 'GET') headers.set('origin', origin)
    const response = await fetch(url, { ...init, headers, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at)
      const value = pair.slice(at + 1)
      if (value === '' || /max-age=0(;|$)/i.test(line)) jar.delete(name)
      else jar.set(name, value)
    }
    return response
  }
  const json = (path: string, body: unknown, headers: HeadersInit = {}) =>
    send(`${issuer}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
    })
  return { jar, send, json }
}
type Browser = ReturnType<typeof browser>

let users = 0
async function signedUpBrowser(): Promise<{ tab: Browser; email: string }> {
  const tab = browser()
  const email = `rp-user-${++users}@example.com`
  const response = await tab.json('/sign-up/email', { name: 'Ada Lovelace', email, password: PASSWORD })
  expect(response.status).toBe(200)
  return { tab, email }
}

function location(response: Response): URL {
  const header = response.headers.get('location')
  expect(header, `status ${response.status} has a Location`).toBeTruthy()
  return new URL(header ?? '', origin)
}

const CALLBACK = 'http://127.0.0.1:4321/callback'
const LOGGED_OUT = 'http://127.0.0.1:4321/logged-out'

/** Registers a client as a signed-in user would (RFC 7591), and answers the registration response. */
async function register(tab: Browser, method: 'client_secret_basic' | 'client_secret_post' | 'none') {
  const response = await tab.json('/oauth2/register', {
    client_name: `RP ${method}`,
    redirect_uris: [CALLBACK],
    post_logout_redirect_uris: [LOGGED_OUT],
    token_endpoint_auth_method: method,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  })
  expect(response.status).toBe(201)
  const body = (await response.json()) as { client_id: string; client_secret?: string }
  if (method === 'none') expect(body.client_secret).toBeUndefined()
  else expect(body.client_secret).toEqual(expect.any(String))
  return body
}

function clientAuth(method: 'client_secret_basic' | 'client_secret_post' | 'none', secret: string | undefined): oidc.ClientAuth {
  if (method === 'none') return oidc.None()
  return method === 'client_secret_post' ? oidc.ClientSecretPost(secret) : oidc.ClientSecretBasic(secret)
}

async function discover(clientId: string, method: 'client_secret_basic' | 'client_secret_post' | 'none', secret?: string) {
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

/**
 * The browser's part: authorize; with no session, the login page, where the
 * user signs in and the page resumes; the consent page, where the user allows;
 * back at the callback. Answers the callback URL.
 */
async function browse(tab: Browser, pending: Pending, signIn?: { email: string }): Promise<URL> {
  const response = await tab.send(pending.url)
  expect(response.status).toBe(302)
  let next = location(response)
  if (signIn) {
    expect(`${next.origin}${next.pathname}`).toBe(`${origin}/login`)
    const signedIn = await tab.json('/sign-in/email', { email: signIn.email, password: PASSWORD })
    expect(signedIn.status).toBe(200)
    const body = (await signedIn.json()) as { redirect?: boolean; url?: string }
    // The sign-in answer says where the flow continues (the login page's job is to go there).
    expect(body.redirect).toBe(true)
    next = new URL(body.url ?? '', origin)
  }
  if (`${next.origin}${next.pathname}` === `${origin}/consent`) {
    expect(next.searchParams.get('client_id')).toBe(pending.url.searchParams.get('client_id'))
    expect(next.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid']))
    const consent = await tab.json('/oauth2/consent', { accept: true })
    expect(consent.status).toBe(200)
    const { redirectURI } = (await consent.json()) as { redirectURI: string }
    next = new URL(redirectURI)
  }
  expect(`${next.origin}${next.pathname}`).toBe(CALLBACK)
  return next
}

describe.each(['client_secret_basic', 'client_secret_post', 'none'] as const)('openid-client with %s', (method) => {
  it('discovery, code + PKCE, userinfo, refresh rotation, introspection, revocation, end-session', async () => {
    const { tab: owner } = await signedUpBrowser()
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
    const { tab, email } = await signedUpBrowser()
    await tab.json('/sign-out', {})
    const pending = await authorizationRequest(config, 'openid email profile offline_access', { prompt: 'consent' })
    const callback = await browse(tab, pending, { email })
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
      const url = await browse(tab, request)
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
    const back = location(loggedOut)
    expect(`${back.origin}${back.pathname}`).toBe(LOGGED_OUT)
    expect(back.searchParams.get('state')).toBe(logoutState)
    const session = await tab.send(`${issuer}/get-session`)
    expect(await session.json()).toBeNull()
  })
})

describe('openid-client refuses what it must', () => {
  it('a wrong PKCE verifier is invalid_grant; a confidential client without its secret is invalid_client', async () => {
    const { tab } = await signedUpBrowser()
    const registered = await register(tab, 'client_secret_basic')
    const config = await discover(registered.client_id, 'client_secret_basic', registered.client_secret)
    const pending = await authorizationRequest(config, 'openid')
    const callback = await browse(tab, pending)
    await expect(
      oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        expectedState: pending.state,
        expectedNonce: pending.nonce,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' })

    const noSecret = await discover(registered.client_id, 'none')
    const retry = await authorizationRequest(noSecret, 'openid')
    const code = await browse(tab, retry)
    await expect(
      oidc.authorizationCodeGrant(noSecret, code, { pkceCodeVerifier: retry.verifier, expectedState: retry.state, expectedNonce: retry.nonce }),
    ).rejects.toMatchObject({ error: 'invalid_client' })
  })

  it('a client authenticates only the way it registered: client_secret_basic sent as client_secret_post is invalid_client', async () => {
    const { tab } = await signedUpBrowser()
    const registered = await register(tab, 'client_secret_basic')
    const config = await discover(registered.client_id, 'client_secret_post', registered.client_secret)
    const pending = await authorizationRequest(config, 'openid')
    const callback = await browse(tab, pending)
    await expect(
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce }),
    ).rejects.toMatchObject({ error: 'invalid_client' })
  })

  it('a redirect URI that differs by a trailing slash gets an error page, not a redirect', async () => {
    const { tab } = await signedUpBrowser()
    const registered = await register(tab, 'client_secret_basic')
    const config = await discover(registered.client_id, 'client_secret_basic', registered.client_secret)
    const pending = await authorizationRequest(config, 'openid', { redirect_uri: `${CALLBACK}/` })
    const response = await tab.send(pending.url)
    expect(response.status).toBe(400)
    expect(response.headers.get('location')).toBeNull()
  })
})
