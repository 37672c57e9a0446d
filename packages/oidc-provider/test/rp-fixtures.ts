/**
 * Fixtures for the off-the-shelf relying-party tests: the provider served
 * over loopback HTTP (an in-memory database, rate limits off, real clock),
 * and a browser made of fetch and a cookie jar that signs up, registers
 * clients (RFC 7591) and walks an authorization through the login page and
 * the consent page back to the relying party's callback. Nothing here knows
 * which relying-party library a test uses.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { toNodeHandler } from '@gatehouse/core/node'
import { expect } from 'vitest'
import { oidcProvider, type OidcProviderOptions } from '../src/index.js'

export const PASSWORD = 'correct horse battery'
const SECRET = 'relying-party-test-secret-0123456789-abcdef'
/** The relying party's addresses; nothing listens there, the test reads the redirect. */
export const CALLBACK = 'http://127.0.0.1:4321/callback'
export const LOGGED_OUT = 'http://127.0.0.1:4321/logged-out'

function makeAuth(base: string, options: Partial<OidcProviderOptions>) {
  return createAuth({
    baseURL: base,
    secret: SECRET,
    database: memoryAdapter(),
    logger: { disabled: true },
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    plugins: [oidcProvider({ loginPage: `${base}/login`, consentPage: `${base}/consent`, ...options })],
  })
}

export interface ServedProvider {
  readonly origin: string
  /** `${origin}/api/auth`, the `iss` of every token. */
  readonly issuer: string
  readonly auth: ReturnType<typeof makeAuth>
  close(): Promise<void>
}

/**
 * The provider on a free loopback port; `close` ends it.
 *
 * @example
 * beforeAll(async () => { provider = await serveProvider() })
 * afterAll(() => provider.close())
 */
export async function serveProvider(options: Partial<OidcProviderOptions> = {}): Promise<ServedProvider> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const auth = makeAuth(origin, options)
  const handle = toNodeHandler(auth)
  server.on('request', (req, res) => void handle(req, res))
  return {
    origin,
    issuer: `${origin}/api/auth`,
    auth,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A browser: cookies kept per name, redirects left to the caller, the page's Origin on POSTs. */
export function browser(provider: ServedProvider) {
  const jar = new Map<string, string>()
  const send = async (url: string | URL, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers)
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '))
    if (init.method && init.method !== 'GET') headers.set('origin', provider.origin)
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
    send(`${provider.issuer}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
    })
  return { provider, jar, send, json }
}
export type Browser = ReturnType<typeof browser>

let users = 0
/** A browser in which a new user has just signed up (and so is signed in). */
export async function signedUpBrowser(provider: ServedProvider): Promise<{ tab: Browser; email: string }> {
  const tab = browser(provider)
  const email = `rp-user-${++users}@example.com`
  const response = await tab.json('/sign-up/email', { name: 'Ada Lovelace', email, password: PASSWORD })
  expect(response.status).toBe(200)
  return { tab, email }
}

export function location(response: Response, base: string): URL {
  const header = response.headers.get('location')
  expect(header, `status ${response.status} has a Location`).toBeTruthy()
  return new URL(header ?? '', base)
}

export type AuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none'

/** Registers a client as a signed-in user would (RFC 7591), and answers the registration response. */
export async function register(tab: Browser, method: AuthMethod) {
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

/**
 * The browser's part of an authorization: open the relying party's
 * authorization URL; with `signIn`, the login page, where the user signs in
 * and the page goes where the sign-in answer says; the consent page, where
 * the user allows; back at the callback. Answers the callback URL.
 */
export async function browse(tab: Browser, authorizationURL: URL, signIn?: { email: string }): Promise<URL> {
  const { origin } = tab.provider
  const response = await tab.send(authorizationURL)
  expect(response.status).toBe(302)
  let next = location(response, origin)
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
    // The page shows what the server holds for its consent_id, then answers with the spec's `{ accept }` alone.
    const shown = await tab.send(`${tab.provider.issuer}/oauth2/consent?consent_id=${encodeURIComponent(next.searchParams.get('consent_id') ?? '')}`)
    expect(shown.status).toBe(200)
    const request = (await shown.json()) as { client: { clientId: string }; scopes: string[] }
    expect(request.client.clientId).toBe(authorizationURL.searchParams.get('client_id'))
    expect(request.scopes).toEqual(expect.arrayContaining(['openid']))
    const consent = await tab.json('/oauth2/consent', { accept: true })
    expect(consent.status).toBe(200)
    const { redirectURI } = (await consent.json()) as { redirectURI: string }
    next = new URL(redirectURI)
  }
  expect(`${next.origin}${next.pathname}`).toBe(CALLBACK)
  return next
}
