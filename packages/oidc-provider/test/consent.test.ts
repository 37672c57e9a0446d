/**
 * POST /oauth2/consent {accept}: needs the user's session, the origin check
 * and the pending request of the signed consent cookie; accept re-issues the
 * code and records the consent, deny deletes the pending code and sends
 * access_denied; fetch callers get `{ redirectURI }`, form posts a 302.
 */
import { describe, expect, it } from 'vitest'
import { cookieHeader } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
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
  type TestClient,
  type TestUser,
} from './fixtures.js'

async function pendingConsent(auth: ProviderAuth, user: TestUser, client: TestClient, overrides = {}) {
  const { query, state } = authorizeQuery(client, overrides)
  const response = await getAuthorize(auth, query, user.cookie)
  expect(location(response).pathname).toBe('/consent')
  return { cookie: cookieHeader(response, user.cookie), state }
}

async function rows(auth: ProviderAuth, model: string) {
  const { db } = await auth.$context
  return db.findMany<Record<string, unknown>>({ model })
}

describe('POST /oauth2/consent', () => {
  it('accept: the client gets a fresh code with state and iss, and the consent is stored', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const { cookie, state } = await pendingConsent(auth, user, client)
    const reply = await postConsent(auth, cookie, true)
    expect(reply.status).toBe(200)
    const target = new URL(String(reply.body.redirectURI))
    expect(target.origin + target.pathname).toBe(CALLBACK)
    expect(target.searchParams.get('code')).toHaveLength(32)
    expect(target.searchParams.get('state')).toBe(state)
    expect(target.searchParams.get('iss')).toBe(ISSUER)
    expect(reply.response.headers.getSetCookie().find((line) => line.includes('oidc_consent_prompt'))).toMatch(/Max-Age=0/i)

    const consents = await rows(auth, 'oauthConsent')
    expect(consents).toEqual([expect.objectContaining({ clientId: client.clientId, userId: user.id, scopes: 'openid profile email', consentGiven: true })])
    const verifications = (await rows(auth, 'verification')).map((row) => String(row.identifier))
    expect(verifications.filter((id) => id.startsWith('oidc-consent:'))).toHaveLength(0)
    expect(verifications.filter((id) => id.startsWith('oidc-code:'))).toHaveLength(1)

    // The pending request is spent: a second answer finds nothing.
    expect((await postConsent(auth, cookie, true)).status).toBe(400)
  })

  it('deny: access_denied with state and iss, the pending code deleted, nothing stored', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const { cookie, state } = await pendingConsent(auth, user, client)
    const reply = await postConsent(auth, cookie, false)
    const target = new URL(String(reply.body.redirectURI))
    expect(Object.fromEntries(target.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The user denied the request',
      state,
      iss: ISSUER,
    })
    expect(await rows(auth, 'oauthConsent')).toEqual([])
    expect((await rows(auth, 'verification')).filter((row) => String(row.identifier).startsWith('oidc-'))).toEqual([])
  })

  it('a form post gets a 302 to the client', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const { cookie } = await pendingConsent(auth, user, client)
    const response = await auth.handler(
      request('/api/auth/oauth2/consent', {
        method: 'POST',
        headers: { origin: BASE, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'accept=true',
      }),
    )
    expect(response.status).toBe(302)
    expect(location(response).searchParams.get('code')).toHaveLength(32)
  })

  it('needs a session, the origin check, and the pending request of this very user', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const mallory = await newUser(auth)
    const client = await createClient(auth)
    const { cookie } = await pendingConsent(auth, user, client)
    const pendingOnly = cookie
      .split('; ')
      .filter((pair) => pair.includes('oidc_consent_prompt'))
      .join('; ')

    const anonymous = await auth.handler(request('/api/auth/oauth2/consent', { json: { accept: true }, headers: { origin: BASE, cookie: pendingOnly } }))
    expect(anonymous.status).toBe(401)
    const crossSite = await auth.handler(request('/api/auth/oauth2/consent', { json: { accept: true }, headers: { origin: 'https://evil.example.com', cookie } }))
    expect(crossSite.status).toBe(403)
    const noPending = await postConsent(auth, user.cookie, true)
    expect(noPending.status).toBe(400)
    // The consent page's own call: core's shape, which the client half narrows.
    expect(noPending.body).toEqual({ code: 'NO_PENDING_CONSENT', message: 'No pending consent request' })

    // Another user's session with the victim's pending cookie gets nothing, and the request is burned.
    const stolen = await postConsent(auth, `${mallory.cookie}; ${pendingOnly}`, true)
    expect(stolen.status).toBe(400)
    expect(stolen.body.code).toBe('NO_PENDING_CONSENT')
    expect(await rows(auth, 'oauthConsent')).toEqual([])
  })

  it('an expired pending request (600 s) is refused', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const { cookie } = await pendingConsent(auth, user, client)
    auth.clock.advance(600_001)
    const expired = await postConsent(auth, cookie, true)
    expect([expired.status, expired.body.code]).toEqual([400, 'NO_PENDING_CONSENT'])
  })

  it('a tampered consent cookie is ignored', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const { cookie } = await pendingConsent(auth, user, client)
    const tampered = cookie.replace(/(oidc_consent_prompt=)([^;.]*)/, (_, name: string, value: string) => `${name}${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`)
    expect((await postConsent(auth, tampered, true)).status).toBe(400)
  })

  it('a client disabled while the page is shown: CLIENT_DISABLED in core\'s shape, and no consent stored', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const { cookie } = await pendingConsent(auth, user, client)
    await auth.api.oauth2UpdateClient({ body: { clientId: client.clientId, update: { disabled: true } } })
    const answer = await postConsent(auth, cookie, true)
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ code: 'CLIENT_DISABLED', message: 'Client is disabled' })
    expect(await rows(auth, 'oauthConsent')).toEqual([])
  })
})
