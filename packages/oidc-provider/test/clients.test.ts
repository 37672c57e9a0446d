/**
 * Clients: dynamic registration (RFC 7591) with its validation and session
 * rule, the public client info for the consent page, and the server-only
 * management api (404 over HTTP).
 */
import { describe, expect, it } from 'vitest'
import { authed } from '../../core/test/accounts.js'
import { request } from '../../core/test/helpers.js'
import { authorizeCode, basic, CALLBACK, createClient, newUser, postForm, providerAuth, redeem, type ProviderAuth } from './fixtures.js'

async function register(auth: ProviderAuth, metadata: Record<string, unknown>, cookie = '') {
  const response = await auth.handler(authed('/api/auth/oauth2/register', cookie, { json: metadata }))
  return { status: response.status, headers: response.headers, body: await response.json() }
}

describe('POST /oauth2/register', () => {
  it('answers 201 with the id, the secret once, the times and the echoed metadata; stores the secret hashed', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const reply = await register(
      auth,
      {
        client_name: 'Notes',
        redirect_uris: [CALLBACK, 'http://127.0.0.1:8080/cb'],
        logo_uri: 'https://rp.example.com/logo.png',
        client_uri: 'https://rp.example.com',
        contacts: ['ops@rp.example.com'],
        post_logout_redirect_uris: ['https://rp.example.com/bye'],
        scope: 'openid email',
      },
      user.cookie,
    )
    expect(reply.status).toBe(201)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    const now = Math.floor(auth.clock.now().getTime() / 1000)
    expect(reply.body).toEqual({
      client_id: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      client_secret: expect.any(String),
      client_id_issued_at: now,
      client_secret_expires_at: 0,
      client_name: 'Notes',
      redirect_uris: [CALLBACK, 'http://127.0.0.1:8080/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      post_logout_redirect_uris: ['https://rp.example.com/bye'],
      logo_uri: 'https://rp.example.com/logo.png',
      scope: 'openid email',
      // Stored and echoed as parsed (docs/oidc-provider.md#registering-clients).
      client_uri: 'https://rp.example.com/',
      contacts: ['ops@rp.example.com'],
    })
    const { db } = await auth.$context
    const row = await db.findOne<Record<string, unknown>>({ model: 'oauthApplication', where: { field: 'clientId', value: reply.body.client_id } })
    expect(row).toMatchObject({ userId: user.id, type: 'web', redirectURLs: `${CALLBACK},http://127.0.0.1:8080/cb`, disabled: false, verified: false })
    expect(row?.clientSecret).not.toBe(reply.body.client_secret)
    expect(String(row?.clientSecret)).toHaveLength(43)

    // The secret works at the token endpoint.
    const client = { clientId: reply.body.client_id, clientSecret: reply.body.client_secret }
    const { code, verifier } = await authorizeCode(auth, user, client, { scope: 'openid' })
    expect((await redeem(auth, client, code, verifier)).status).toBe(200)
  })

  it('a public client (none) gets no secret', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const reply = await register(auth, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }, user.cookie)
    expect(reply.status).toBe(201)
    expect(reply.body.client_secret).toBeUndefined()
    expect(reply.body.token_endpoint_auth_method).toBe('none')
  })

  it('needs a session unless dynamic registration is allowed', async () => {
    const closed = providerAuth()
    const refused = await register(closed, { redirect_uris: [CALLBACK] })
    expect(refused.status).toBe(401)
    expect(refused.body.error).toBe('invalid_token')
    const { db } = await closed.$context
    expect(await db.count({ model: 'oauthApplication' })).toBe(0)

    const open = providerAuth({ allowDynamicClientRegistration: true })
    const accepted = await register(open, { redirect_uris: [CALLBACK] })
    expect(accepted.status).toBe(201)
  })

  it.each([
    ['no redirect_uris', {}, 'invalid_redirect_uri'],
    ['an empty redirect_uris', { redirect_uris: [] }, 'invalid_redirect_uri'],
    ['a relative URI', { redirect_uris: ['/callback'] }, 'invalid_redirect_uri'],
    ['http off loopback', { redirect_uris: ['http://rp.example.com/cb'] }, 'invalid_redirect_uri'],
    ['a fragment', { redirect_uris: [`${CALLBACK}#x`] }, 'invalid_redirect_uri'],
    ['javascript:', { redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
    ['data:', { redirect_uris: ['data:text/html,hi'] }, 'invalid_redirect_uri'],
    ['a comma', { redirect_uris: ['https://rp.example.com/cb?a=1,2'] }, 'invalid_redirect_uri'],
    ['a bad post-logout URI', { redirect_uris: [CALLBACK], post_logout_redirect_uris: ['javascript:x'] }, 'invalid_redirect_uri'],
    ['an unknown auth method', { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
    ['the implicit grant', { redirect_uris: [CALLBACK], grant_types: ['implicit'], response_types: ['token'] }, 'invalid_client_metadata'],
    ['code grant without code response', { redirect_uris: [CALLBACK], grant_types: ['authorization_code'], response_types: [] }, 'invalid_client_metadata'],
    ['code response without code grant', { redirect_uris: [CALLBACK], grant_types: ['refresh_token'], response_types: ['code'] }, 'invalid_client_metadata'],
    ['an unsupported grant', { redirect_uris: [CALLBACK], grant_types: ['authorization_code', 'client_credentials'] }, 'invalid_client_metadata'],
    ['an unknown scope', { redirect_uris: [CALLBACK], scope: 'openid admin' }, 'invalid_client_metadata'],
    ['redirect_uris not an array', { redirect_uris: CALLBACK }, 'invalid_client_metadata'],
  ])('refuses %s', async (_, metadata, error) => {
    const auth = providerAuth({ allowDynamicClientRegistration: true })
    const reply = await register(auth, metadata)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({ error, error_description: expect.any(String) })
    const { db } = await auth.$context
    expect(await db.count({ model: 'oauthApplication' })).toBe(0)
  })

  it('is rate limited', async () => {
    const auth = providerAuth({ allowDynamicClientRegistration: true }, { rateLimit: { enabled: true } })
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const response = await auth.handler(request('/api/auth/oauth2/register', { json: { redirect_uris: [CALLBACK] }, headers: { 'x-forwarded-for': '203.0.113.7' } }))
      statuses.push(response.status)
    }
    expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true)
    expect(statuses[10]).toBe(429)
  })
})

describe('GET /oauth2/client/:id', () => {
  it('answers the public face only; 404 for an unknown client', async () => {
    const auth = providerAuth()
    const client = await createClient(auth, { icon: 'https://rp.example.com/logo.png', metadata: { secretive: true } })
    const response = await auth.handler(request(`/api/auth/oauth2/client/${client.clientId}`))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ clientId: client.clientId, name: 'Notes', icon: 'https://rp.example.com/logo.png' })
    const missing = await auth.handler(request('/api/auth/oauth2/client/ghost'))
    expect(missing.status).toBe(404)
  })

  it('knows trusted clients, with a null icon when none is set', async () => {
    const auth = providerAuth({ trustedClients: [{ clientId: 'console', name: 'Console', redirectURLs: [CALLBACK], type: 'public' }] })
    const response = await auth.handler(request('/api/auth/oauth2/client/console'))
    expect(await response.json()).toEqual({ clientId: 'console', name: 'Console', icon: null })
  })
})

describe('server-only client management', () => {
  it('is not routed: 404 over HTTP', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    for (const path of ['create-client', 'update-client', 'rotate-client-secret', 'delete-client']) {
      const response = await auth.handler(authed(`/api/auth/oauth2/${path}`, user.cookie, { json: { name: 'x', redirectURLs: [CALLBACK], clientId: 'x' } }))
      expect(response.status).toBe(404)
    }
    expect((await auth.handler(authed('/api/auth/oauth2/list-clients', user.cookie))).status).toBe(404)
  })

  it('creates, lists, updates, rotates the secret of and deletes a client', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const created = await auth.api.oauth2CreateClient({ body: { name: 'Wiki', redirectURLs: [CALLBACK], userId: user.id, skipConsent: true } })
    expect(created).toMatchObject({ name: 'Wiki', type: 'web', tokenEndpointAuthMethod: 'client_secret_basic', skipConsent: true, disabled: false, userId: user.id })
    expect(created.clientSecret).toEqual(expect.any(String))

    const listed = await auth.api.oauth2ListClients({ query: { userId: user.id } })
    expect(listed.map((client) => client.clientId)).toEqual([created.clientId])
    expect(JSON.stringify(listed)).not.toContain(created.clientSecret ?? '')

    const updated = await auth.api.oauth2UpdateClient({ body: { clientId: created.clientId, update: { name: 'Wiki 2', redirectURLs: ['https://wiki.example.com/cb'] } } })
    expect(updated).toMatchObject({ name: 'Wiki 2', redirectURLs: ['https://wiki.example.com/cb'] })
    await expect(auth.api.oauth2UpdateClient({ body: { clientId: created.clientId, update: { redirectURLs: ['javascript:x'] } } })).rejects.toMatchObject({
      code: 'INVALID_REDIRECT_URI',
    })

    const client = { clientId: created.clientId, clientSecret: created.clientSecret }
    const rotated = await auth.api.oauth2RotateClientSecret({ body: { clientId: created.clientId } })
    expect(rotated.clientSecret).not.toBe(created.clientSecret)
    const stale = await postForm(auth, '/oauth2/introspect', { token: 'x' }, { authorization: basic(client.clientId, client.clientSecret ?? '') })
    expect(stale.status).toBe(401)
    const fresh = await postForm(auth, '/oauth2/introspect', { token: 'x' }, { authorization: basic(client.clientId, rotated.clientSecret) })
    expect(fresh.status).toBe(200)

    expect(await auth.api.oauth2DeleteClient({ body: { clientId: created.clientId } })).toEqual({ success: true })
    await expect(auth.api.oauth2DeleteClient({ body: { clientId: created.clientId } })).rejects.toMatchObject({ status: 404 })
    expect(await auth.api.oauth2ListClients({})).toEqual([])
  })

  it('deleting a client removes its tokens and consents', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const { code, verifier } = await authorizeCode(auth, user, client)
    await redeem(auth, client, code, verifier)
    const { db } = await auth.$context
    expect(await db.count({ model: 'oauthAccessToken' })).toBe(1)
    expect(await db.count({ model: 'oauthConsent' })).toBe(1)
    await auth.api.oauth2DeleteClient({ body: { clientId: client.clientId } })
    expect(await db.count({ model: 'oauthAccessToken' })).toBe(0)
    expect(await db.count({ model: 'oauthConsent' })).toBe(0)
  })

  it('a public client has no secret to rotate; a type change is refused', async () => {
    const auth = providerAuth()
    const spa = await createClient(auth, { type: 'public' })
    await expect(auth.api.oauth2RotateClientSecret({ body: { clientId: spa.clientId } })).rejects.toMatchObject({ status: 404 })
    await expect(auth.api.oauth2UpdateClient({ body: { clientId: spa.clientId, update: { type: 'web', tokenEndpointAuthMethod: 'client_secret_basic' } } })).rejects.toMatchObject({
      code: 'INVALID_CLIENT_METADATA',
    })
  })
})
