/**
 * Cross-origin calls (docs/oidc-provider.md#cross-origin-calls): a
 * browser-based public client calls the token, userinfo and revoke endpoints
 * from its own origin, so they answer preflights and every answer (errors
 * included) carries `Access-Control-Allow-Origin: *`, never with credentials.
 * The cookie-authenticated routes (authorize, consent, register, client info)
 * stay closed to other origins.
 */
import { describe, expect, it } from 'vitest'
import { request } from '../../core/test/helpers.js'
import { authorizeCode, CALLBACK, createClient, newUser, postForm, providerAuth } from './fixtures.js'

const SPA = 'https://spa.example.org'

function preflight(path: string, method: string) {
  return request(`/api/auth${path}`, {
    method: 'OPTIONS',
    headers: { origin: SPA, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
  })
}

describe('CORS for a browser-based public client', () => {
  it.each([
    ['/oauth2/token', 'POST', 'POST'],
    ['/oauth2/userinfo', 'GET', 'GET, POST'],
    ['/oauth2/revoke', 'POST', 'POST'],
  ])('OPTIONS %s answers the preflight without credentials', async (path, method, methods) => {
    const auth = providerAuth()
    const response = await auth.handler(preflight(path, method))
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toBe(methods)
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type')
    expect(response.headers.get('access-control-allow-credentials')).toBeNull()
  })

  it('a single-page app runs the code exchange, userinfo and revocation cross-origin, and reads the errors', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth, { type: 'user-agent-based', tokenEndpointAuthMethod: 'none', skipConsent: true })
    const { code, verifier } = await authorizeCode(auth, user, client)
    const origin = { origin: SPA }
    const tokens = await postForm(auth, '/oauth2/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier, client_id: client.clientId }, origin)
    expect(tokens.status).toBe(200)
    expect(tokens.headers.get('access-control-allow-origin')).toBe('*')

    const replay = await postForm(auth, '/oauth2/token', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier, client_id: client.clientId }, origin)
    expect(replay.status).toBe(400)
    expect(replay.headers.get('access-control-allow-origin')).toBe('*')

    const info = await auth.handler(request('/api/auth/oauth2/userinfo', { headers: { origin: SPA, authorization: 'Bearer nope' } }))
    expect(info.status).toBe(401)
    expect(info.headers.get('access-control-allow-origin')).toBe('*')
    // The challenge is readable by the page's script.
    expect(info.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate')

    const revoked = await postForm(auth, '/oauth2/revoke', { token: tokens.body.access_token, client_id: client.clientId }, origin)
    expect(revoked.status).toBe(200)
    expect(revoked.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('the discovery document and the key set stay readable from any origin', async () => {
    const auth = providerAuth()
    for (const path of ['/.well-known/openid-configuration', '/jwks']) {
      const response = await auth.handler(request(`/api/auth${path}`, { headers: { origin: SPA } }))
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
    }
  })

  it.each([
    ['/oauth2/authorize', 'GET'],
    ['/oauth2/consent', 'POST'],
    ['/oauth2/register', 'POST'],
    ['/oauth2/client/some-client', 'GET'],
    ['/oauth2/introspect', 'POST'],
  ])('%s is cookie-authenticated or server-to-server: no preflight, no CORS header', async (path, method) => {
    const auth = providerAuth()
    const response = await auth.handler(preflight(path, method))
    expect(response.status).toBe(405)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const plain = await auth.handler(request(`/api/auth${path}`, { method, headers: { origin: SPA }, ...(method === 'POST' ? { body: '{}' } : {}) }))
    expect(plain.headers.get('access-control-allow-origin')).toBeNull()
  })
})
