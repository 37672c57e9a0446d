/**
 * Fixtures for the provider's flows: an auth with the plugin on the
 * in-memory adapter (rate limits off, a clock that stands still), users
 * signed up through the real routes, clients made through the server-only
 * api, and shorthands for the authorize, consent and token steps that return
 * what the browser or the relying party would see.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { GatehousePlugin } from '@gatehouse/core'
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose'
import { expect } from 'vitest'
import { accountAuth, authed, cookieHeader, signUp } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import { oidcProvider } from '../src/plugin.js'
import type { OidcProviderOptions } from '../src/options.js'

export { BASE }
export const ISSUER = `${BASE}/api/auth`
export const CALLBACK = 'https://rp.example.com/callback'
export const LOGIN_PAGE = `${BASE}/login`
export const CONSENT_PAGE = `${BASE}/consent`

export type ProviderAuth = ReturnType<typeof providerAuth>

export function providerAuth(options: Partial<OidcProviderOptions> = {}, core: Parameters<typeof accountAuth>[0] = {}) {
  return accountAuth({
    ...core,
    plugins: [oidcProvider({ loginPage: LOGIN_PAGE, consentPage: CONSENT_PAGE, ...options })],
  })
}

/**
 * The provider beside a plugin that only declares schema fields (no
 * endpoints, no hooks): such as the admin plugin's `impersonatedBy` on
 * sessions, without the admin plugin. Its api and handler are exactly the
 * provider's, which the type says; TypeScript cannot see that through the
 * plugin tuple, hence the one cast.
 */
export function providerAuthWithFields(fields: GatehousePlugin, options: Partial<OidcProviderOptions> = {}): ProviderAuth {
  const auth = accountAuth({ plugins: [oidcProvider({ loginPage: LOGIN_PAGE, consentPage: CONSENT_PAGE, ...options }), fields] })
  return auth as unknown as ProviderAuth
}

export interface TestUser {
  readonly id: string
  readonly email: string
  cookie: string
}

let counter = 0

export async function newUser(auth: ProviderAuth, name = 'Ada Lovelace'): Promise<TestUser> {
  counter += 1
  const email = `oidc-user${counter}-${Math.floor(performance.now())}@example.com`
  const { body, cookie } = await signUp(auth, { email, name })
  if (!body.user) throw new Error(`sign-up failed: ${JSON.stringify(body)}`)
  return { id: body.user.id, email: body.user.email, cookie }
}

export interface TestClient {
  readonly clientId: string
  readonly clientSecret: string | undefined
}

/** A stored client through `api.oauth2CreateClient` (confidential, client_secret_basic, code and refresh grants, unless told). */
export async function createClient(
  auth: ProviderAuth,
  settings: Partial<Parameters<ProviderAuth['api']['oauth2CreateClient']>[0]['body']> = {},
): Promise<TestClient> {
  const body = { name: 'Notes', redirectURLs: [CALLBACK], grantTypes: ['authorization_code', 'refresh_token'], ...settings }
  const created = await auth.api.oauth2CreateClient({ body })
  return { clientId: created.clientId, clientSecret: created.clientSecret }
}

/** A PKCE pair (RFC 7636 §4.1, §4.2). */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  return { verifier, challenge }
}

export interface AuthorizeParams {
  readonly [name: string]: string | undefined
}

/** The authorize query for `client` with a fresh state, nonce and PKCE challenge; `overrides` replace or (undefined) drop fields. */
export function authorizeQuery(client: TestClient, overrides: AuthorizeParams = {}) {
  const { verifier, challenge } = pkce()
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: CALLBACK,
    scope: 'openid profile email',
    state: `state-${++counter}`,
    nonce: `nonce-${counter}`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  }
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, value)
  return { query, verifier, state: params.state, nonce: params.nonce }
}

/** GET /oauth2/authorize as the browser navigates to it (redirects not followed). */
export async function getAuthorize(auth: ProviderAuth, query: URLSearchParams, cookie = ''): Promise<Response> {
  return auth.handler(authed(`/api/auth/oauth2/authorize?${query}`, cookie))
}

export function location(response: Response): URL {
  const value = response.headers.get('location')
  if (!value) throw new Error(`no redirect (status ${response.status}): ${response.headers.get('content-type')}`)
  return new URL(value, BASE)
}

/** POST /oauth2/consent from a fetch caller, for the request `consentId` names (or the only one pending); answers `{ redirectURI }` on success. */
export async function postConsent(auth: ProviderAuth, cookie: string, accept: boolean, consentId?: string) {
  const response = await auth.handler(authed('/api/auth/oauth2/consent', cookie, { json: consentId === undefined ? { accept } : { accept, consentId } }))
  return { response, status: response.status, body: (await response.json()) as Record<string, unknown>, cookie: cookieHeader(response, cookie) }
}

/** GET /oauth2/consent?consent_id=…, as the consent page loads what it shows; answers the body and the browser's cookie after it. */
export async function getConsentRequest(auth: ProviderAuth, cookie: string, consentId: string) {
  const response = await auth.handler(authed(`/api/auth/oauth2/consent?consent_id=${encodeURIComponent(consentId)}`, cookie))
  return { response, status: response.status, body: (await response.json()) as Record<string, any>, cookie: cookieHeader(response, cookie) }
}

/**
 * Runs authorize (and consent, when the page is shown) for a signed-in user
 * and answers the code and the verifier that redeems it.
 */
export async function authorizeCode(auth: ProviderAuth, user: TestUser, client: TestClient, overrides: AuthorizeParams = {}) {
  const { query, verifier, state, nonce } = authorizeQuery(client, overrides)
  const response = await getAuthorize(auth, query, user.cookie)
  let target = location(response)
  if (target.href.startsWith(CONSENT_PAGE)) {
    const consent = await postConsent(auth, cookieHeader(response, user.cookie), true, target.searchParams.get('consent_id') ?? '')
    expect(consent.status).toBe(200)
    target = new URL(String(consent.body.redirectURI))
  }
  expect(target.origin + target.pathname).toBe(CALLBACK)
  const code = target.searchParams.get('code')
  if (!code) throw new Error(`no code: ${target}`)
  return { code, verifier, state, nonce, redirect: target }
}

export function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`
}

export interface Reply {
  readonly status: number
  readonly headers: Headers
  // Response bodies are JSON of unknown shape; tests assert on them.
  readonly body: any
}

async function reply(response: Response): Promise<Reply> {
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
}

/** A form-encoded POST, as relying parties send to the token, revoke and introspect endpoints. */
export async function postForm(auth: ProviderAuth, path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  const response = await auth.handler(
    request(`/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    }),
  )
  return reply(response)
}

/** The token endpoint with client_secret_basic for confidential clients, client_id in the body for public ones. */
export function tokenRequest(auth: ProviderAuth, client: TestClient, form: Record<string, string>): Promise<Reply> {
  if (client.clientSecret === undefined) return postForm(auth, '/oauth2/token', { ...form, client_id: client.clientId })
  return postForm(auth, '/oauth2/token', form, { authorization: basic(client.clientId, client.clientSecret) })
}

export function redeem(auth: ProviderAuth, client: TestClient, code: string, verifier: string): Promise<Reply> {
  return tokenRequest(auth, client, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier })
}

export async function userinfo(auth: ProviderAuth, accessToken: string): Promise<Reply> {
  return reply(await auth.handler(request('/api/auth/oauth2/userinfo', { headers: { authorization: `Bearer ${accessToken}` } })))
}

/** Verifies an ID Token against the provider's published keys, at the test clock's time. */
export async function verifyIdToken(auth: ProviderAuth, idToken: string, audience: string): Promise<JWTPayload> {
  const jwks = await (await auth.handler(request('/api/auth/jwks'))).json()
  const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), { issuer: ISSUER, audience, currentDate: auth.clock.now() })
  return payload
}

/**
 * A new user's tokens with a refresh token: authorize with offline_access
 * and prompt=consent, then redeem the code (200).
 */
export async function offlineTokens(auth: ProviderAuth, client: TestClient, scope = 'openid email offline_access') {
  const user = await newUser(auth)
  const { code, verifier, nonce } = await authorizeCode(auth, user, client, { scope, prompt: 'consent' })
  const reply = await redeem(auth, client, code, verifier)
  expect(reply.status).toBe(200)
  return { user, nonce, tokens: reply.body as { access_token: string; refresh_token: string; id_token: string } }
}

/** The refresh_token grant, with any extra form fields (`scope`). */
export function refreshGrant(auth: ProviderAuth, client: TestClient, refreshToken: string, extra: Record<string, string> = {}): Promise<Reply> {
  return tokenRequest(auth, client, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra })
}

/** Signs a user up and gives a client their consent, so authorize goes straight back with a code. */
export async function consentedSetup(auth: ProviderAuth, settings: Parameters<typeof createClient>[1] = {}) {
  const user = await newUser(auth)
  const client = await createClient(auth, settings)
  return { user, client }
}

/**
 * Twenty racing uses of one code or refresh token: exactly one 200, nineteen
 * 400 invalid_grant, never a 500 (docs/oidc-provider.md#concurrent-use).
 */
export function expectOneWinner(replies: readonly Reply[]): Reply {
  const outcomes = replies.map((reply) => `${reply.status} ${reply.body?.error ?? 'ok'}`).sort()
  expect(outcomes).toEqual(['200 ok', ...Array.from({ length: replies.length - 1 }, () => '400 invalid_grant')])
  const winner = replies.find((reply) => reply.status === 200)
  if (!winner) throw new Error('no winner')
  return winner
}

export async function tokenRows(auth: ProviderAuth, clientId: string) {
  const { db } = await auth.$context
  return db.findMany({ model: 'oauthAccessToken', where: { field: 'clientId', value: clientId } })
}
