/**
 * Self-registered clients (dynamic registration over HTTP) from the review
 * of 2026-11-27: their authorization errors before the user interacted are
 * shown, not redirected (F1, RFC 9700 §4.11.2); every URI of their metadata
 * is checked and stored as parsed (N4, RFC 7591 §2, §5); native apps get
 * RFC 8252's redirect rules (N5).
 */
import { describe, expect, it } from 'vitest'
import { authed, cookieHeader } from '../../core/test/accounts.js'
import {
  authorizeQuery,
  CALLBACK,
  createClient,
  getAuthorize,
  ISSUER,
  location,
  newUser,
  postConsent,
  providerAuth,
  type ProviderAuth,
} from './fixtures.js'

async function register(auth: ProviderAuth, metadata: Record<string, unknown>, cookie: string) {
  const response = await auth.handler(authed('/api/auth/oauth2/register', cookie, { json: metadata }))
  return { status: response.status, body: await response.json() }
}

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

describe('authorization errors of a self-registered client (F1)', () => {
  async function selfRegistered() {
    const auth = providerAuth()
    const owner = await newUser(auth)
    const reply = await register(auth, { client_name: 'Mine', redirect_uris: ['https://evil.example/cb'], post_logout_redirect_uris: ['https://evil.example/bye'] }, owner.cookie)
    expect(reply.status).toBe(201)
    return { auth, owner, client: { clientId: String(reply.body.client_id), clientSecret: String(reply.body.client_secret) } }
  }

  it('before the user did anything: an error page (or the JSON), never a redirect, signed in or not', async () => {
    const { auth, owner, client } = await selfRegistered()
    // The review's request: no response_type, no cookie.
    const query = authorizeQuery(client, { redirect_uri: 'https://evil.example/cb', response_type: undefined }).query
    for (const cookie of ['', owner.cookie]) {
      const page = await auth.handler(new Request(`${ISSUER}/oauth2/authorize?${query}`, { headers: { cookie, accept: BROWSER_ACCEPT } }))
      expect(page.status).toBe(400)
      expect(page.headers.get('location')).toBeNull()
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      const html = await page.text()
      expect(html).toContain('<code>invalid_request</code>')
      expect(html).not.toContain('evil.example')
    }
    const api = await getAuthorize(auth, query)
    expect(api.status).toBe(400)
    expect(await api.json()).toEqual({ error: 'invalid_request', error_description: 'response_type is required' })
    // prompt=none without a session is no exception: it is the same redirect with no one asked.
    const silent = await getAuthorize(auth, authorizeQuery(client, { redirect_uri: 'https://evil.example/cb', prompt: 'none' }).query)
    expect([silent.status, (await silent.json()).error]).toEqual([400, 'login_required'])
  })

  it('after the user interacted (a denial on the consent page) the error goes back to the client', async () => {
    const { auth, client } = await selfRegistered()
    const user = await newUser(auth)
    const opened = await getAuthorize(auth, authorizeQuery(client, { redirect_uri: 'https://evil.example/cb' }).query, user.cookie)
    const consentId = location(opened).searchParams.get('consent_id') ?? ''
    const denied = await postConsent(auth, cookieHeader(opened, user.cookie), false, consentId)
    expect(new URL(String(denied.body.redirectURI)).searchParams.get('error')).toBe('access_denied')
  })

  it('an operator-registered client keeps the redirect (the spec), and so does one the operator marks verified', async () => {
    const auth = providerAuth()
    const client = await createClient(auth)
    const response = await getAuthorize(auth, authorizeQuery(client, { response_type: undefined }).query)
    expect(response.status).toBe(302)
    expect(location(response).origin + location(response).pathname).toBe(CALLBACK)

    const { auth: other, client: mine } = await selfRegistered()
    await other.api.oauth2UpdateClient({ body: { clientId: mine.clientId, update: { verified: true } } })
    const vetted = await getAuthorize(other, authorizeQuery(mine, { redirect_uri: 'https://evil.example/cb', response_type: undefined }).query)
    expect(vetted.status).toBe(302)
    expect(location(vetted).searchParams.get('error')).toBe('invalid_request')
  })
})

describe('registration checks every URI (N4)', () => {
  it.each([
    ['policy_uri javascript:', { policy_uri: 'javascript:alert(document.domain)' }, 'invalid_client_metadata'],
    ['tos_uri data:', { tos_uri: 'data:text/html,<script>alert(1)</script>' }, 'invalid_client_metadata'],
    ['client_uri over http', { client_uri: 'http://evil.example' }, 'invalid_client_metadata'],
    ['logo_uri over http on loopback', { logo_uri: 'http://127.0.0.1/logo.png' }, 'invalid_client_metadata'],
    ['a client_uri with a tab', { client_uri: 'https://x.example/a\tb' }, 'invalid_client_metadata'],
    ['a redirect URI with a tab and a newline', { redirect_uris: ['https://x.example/a\tb\nc'] }, 'invalid_redirect_uri'],
    ['a redirect URI not in its parsed form', { redirect_uris: ['https://X.example/cb'] }, 'invalid_redirect_uri'],
    ['a post-logout URI with a control character', { post_logout_redirect_uris: ['https://x.example/\u0000'] }, 'invalid_redirect_uri'],
    ['six contacts', { contacts: ['a@x.example', 'b@x.example', 'c@x.example', 'd@x.example', 'e@x.example', 'f@x.example'] }, 'invalid_client_metadata'],
    ['a contact too long', { contacts: [`${'a'.repeat(250)}@x.example`] }, 'invalid_client_metadata'],
    ['contacts not strings', { contacts: [1] }, 'invalid_client_metadata'],
    ['a name too long', { client_name: 'n'.repeat(101) }, 'invalid_client_metadata'],
    ['a name with a bidi override', { client_name: 'Gatehouse\u202e Security' }, 'invalid_client_metadata'],
    ['an unknown application_type', { application_type: 'desktop' }, 'invalid_client_metadata'],
  ])('refuses %s', async (_, metadata, error) => {
    const auth = providerAuth()
    const owner = await newUser(auth)
    const reply = await register(auth, { client_name: 'RP', redirect_uris: [CALLBACK], ...metadata }, owner.cookie)
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe(error)
    const { db } = await auth.$context
    expect(await db.count({ model: 'oauthApplication' })).toBe(0)
  })

  it('stores the URIs as parsed and marks the client unverified; a server-side registration is verified', async () => {
    const auth = providerAuth()
    const owner = await newUser(auth)
    const reply = await register(
      auth,
      { client_name: 'RP', redirect_uris: [CALLBACK], client_uri: 'https://RP.example.com', policy_uri: 'https://rp.example.com/p?x=a b'.replace(' ', '%20'), logo_uri: 'https://rp.example.com/l.png' },
      owner.cookie,
    )
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({ client_uri: 'https://rp.example.com/', policy_uri: 'https://rp.example.com/p?x=a%20b', logo_uri: 'https://rp.example.com/l.png' })
    const listed = await auth.api.oauth2ListClients({ query: { userId: owner.id } })
    expect(listed[0]).toMatchObject({ verified: false, metadata: { client_uri: 'https://rp.example.com/' } })

    const server = await auth.api.oauth2Register({ body: { client_name: 'Ops', redirect_uris: [CALLBACK] } })
    const ops = (await server.json()) as { client_id: string }
    const all = await auth.api.oauth2ListClients({})
    expect(all.find((client) => client.clientId === ops.client_id)?.verified).toBe(true)
  })
})

describe('native apps (N5, RFC 8252)', () => {
  async function nativeApp(auth: ProviderAuth, redirectURIs: string[]) {
    const owner = await newUser(auth)
    return register(auth, { client_name: 'App', application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: redirectURIs }, owner.cookie)
  }

  it('a loopback IP redirect URI of a native public client matches on any port (§7.3), nothing else loosens', async () => {
    const auth = providerAuth()
    const reply = await nativeApp(auth, ['http://127.0.0.1/cb', 'http://[::1]:8080/cb'])
    expect(reply.status).toBe(201)
    const client = { clientId: String(reply.body.client_id), clientSecret: undefined }
    const user = await newUser(auth)
    for (const uri of ['http://127.0.0.1:51004/cb', 'http://127.0.0.1/cb', 'http://[::1]:9/cb']) {
      const response = await getAuthorize(auth, authorizeQuery(client, { redirect_uri: uri }).query, user.cookie)
      expect(location(response).pathname).toBe('/consent')
    }
    for (const uri of ['http://127.0.0.1:51004/cb2', 'http://localhost:51004/cb', 'https://127.0.0.1:51004/cb', 'http://127.0.0.1:51004/cb?x']) {
      const response = await getAuthorize(auth, authorizeQuery(client, { redirect_uri: uri }).query, user.cookie)
      expect(response.status).toBe(400)
    }
  })

  it('a web client\'s loopback URI still matches its port exactly', async () => {
    const auth = providerAuth()
    const client = await createClient(auth, { redirectURLs: ['http://127.0.0.1:8080/cb'] })
    const response = await getAuthorize(auth, authorizeQuery(client, { redirect_uri: 'http://127.0.0.1:9090/cb' }).query)
    expect(response.status).toBe(400)
  })

  it('private-use reverse-domain schemes for native public clients only (§7.1)', async () => {
    const auth = providerAuth()
    expect((await nativeApp(auth, ['com.example.app:/oauth2redirect'])).status).toBe(201)
    expect((await nativeApp(auth, ['myapp:/cb'])).body.error).toBe('invalid_redirect_uri')
    const owner = await newUser(auth)
    const web = await register(auth, { client_name: 'Web', redirect_uris: ['com.example.app:/cb'] }, owner.cookie)
    expect(web.body.error).toBe('invalid_redirect_uri')
    const spa = await register(auth, { client_name: 'SPA', token_endpoint_auth_method: 'none', redirect_uris: ['com.example.app:/cb'] }, owner.cookie)
    expect(spa.body.error).toBe('invalid_redirect_uri')
  })

  it('http://localhost is refused for a confidential web client, kept for public clients', async () => {
    const auth = providerAuth()
    const owner = await newUser(auth)
    const web = await register(auth, { client_name: 'Web', redirect_uris: ['http://localhost:3000/cb'] }, owner.cookie)
    expect([web.status, web.body.error]).toEqual([400, 'invalid_redirect_uri'])
    expect(web.body.error_description).toContain('127.0.0.1')
    const spa = await register(auth, { client_name: 'SPA', token_endpoint_auth_method: 'none', redirect_uris: ['http://localhost:3000/cb'] }, owner.cookie)
    expect(spa.status).toBe(201)
  })
})
