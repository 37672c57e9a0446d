/**
 * The example server's OpenID Provider over real HTTP: discovery names the
 * issuer and S256 only; registration needs a signed-in user; PKCE is
 * required of public clients and optional for confidential ones (the
 * provider's defaults); an authorization without a session goes to the
 * app's /login page and, once signed in, to its /consent page; both pages
 * are the app's shell.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../src/server.js'
import { caller, cookiesOf, startExample } from './harness.js'

const SHELL = '<!doctype html><title>app shell</title><div id="root"></div>'
// RFC 7636 Appendix B.
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGjSstw-cM'

describe('example server as an OpenID Provider', () => {
  let dir = ''
  let server: RunningServer
  let cookie = ''

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-oidc-'))
    await mkdir(join(dir, 'app'))
    await writeFile(join(dir, 'app', 'index.html'), SHELL)
    server = await startExample(dir, { RATE_LIMIT: '0' }, { appDirectory: join(dir, 'app') })
  })
  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const call = caller(() => server)

  it('serves discovery for the issuer {BASE_URL}/api/auth, with S256 only', async () => {
    const response = await call('/api/auth/.well-known/openid-configuration')
    expect(response.status).toBe(200)
    const metadata = (await response.json()) as Record<string, unknown>
    expect(metadata).toMatchObject({
      issuer: `${server.url}/api/auth`,
      authorization_endpoint: `${server.url}/api/auth/oauth2/authorize`,
      registration_endpoint: `${server.url}/api/auth/oauth2/register`,
      jwks_uri: `${server.url}/api/auth/jwks`,
      code_challenge_methods_supported: ['S256'],
    })
  })

  it('registers clients only for a signed-in user; PKCE for public clients; authorize goes to /login and /consent, both the app shell', async () => {
    const metadata = { client_name: 'Notes', redirect_uris: ['http://127.0.0.1:4000/callback'] }
    const anonymous = await call('/api/auth/oauth2/register', { json: metadata })
    expect(anonymous.status).toBe(401)

    const signUp = await call('/api/auth/sign-up/email', { json: { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' } })
    expect(signUp.status).toBe(200)
    cookie = cookiesOf(signUp)
    const registered = await call('/api/auth/oauth2/register', { json: metadata, cookie })
    expect(registered.status).toBe(201)
    const body = (await registered.json()) as { client_id: string; client_secret: string }
    expect(body.client_secret).toEqual(expect.any(String))

    const query = new URLSearchParams({
      response_type: 'code',
      client_id: body.client_id,
      redirect_uri: metadata.redirect_uris[0] ?? '',
      scope: 'openid email',
      state: 's1',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
    })
    // No PKCE: a confidential client may leave it out (it goes on to consent); a public client may not.
    const withoutPKCE = new URLSearchParams(query)
    withoutPKCE.delete('code_challenge')
    withoutPKCE.delete('code_challenge_method')
    const confidential = await call(`/api/auth/oauth2/authorize?${withoutPKCE}`, { cookie })
    expect(new URL(confidential.headers.get('location') ?? '', server.url).pathname).toBe('/consent')
    const spa = await call('/api/auth/oauth2/register', { json: { ...metadata, token_endpoint_auth_method: 'none' }, cookie })
    expect(spa.status).toBe(201)
    withoutPKCE.set('client_id', ((await spa.json()) as { client_id: string }).client_id)
    // Self-registered: its error, before the user did anything, is answered here, never redirected (docs/oidc-provider.md#verified-and-self-registered-clients).
    const refused = await call(`/api/auth/oauth2/authorize?${withoutPKCE}`, { cookie })
    expect(refused.status).toBe(400)
    expect(refused.headers.get('location')).toBeNull()
    expect(await refused.json()).toEqual({ error: 'invalid_request', error_description: 'code_challenge is required' })

    // Signed out: the app's login page, with the request.
    const toLogin = await call(`/api/auth/oauth2/authorize?${query}`)
    expect(toLogin.status).toBe(302)
    const login = new URL(toLogin.headers.get('location') ?? '', server.url)
    expect(`${login.origin}${login.pathname}`).toBe(`${server.url}/login`)
    expect(login.searchParams.get('client_id')).toBe(body.client_id)

    // Signed in, first time: the app's consent page, with the client and the scopes.
    const toConsent = await call(`/api/auth/oauth2/authorize?${query}`, { cookie })
    const consent = new URL(toConsent.headers.get('location') ?? '', server.url)
    expect(`${consent.origin}${consent.pathname}`).toBe(`${server.url}/consent`)
    expect(consent.searchParams.get('scope')).toBe('openid email')

    for (const page of [login, consent]) {
      const shell = await call(`${page.pathname}${page.search}`)
      expect(shell.status).toBe(200)
      expect(await shell.text()).toBe(SHELL)
    }
  })
})
