/**
 * POST /oauth2/consent {accept}: needs the user's session, the origin check
 * and the pending request of the signed consent cookie, which the consent
 * page loaded (GET /oauth2/consent, test/consent-request.test.ts); accept re-issues the
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
  getConsentRequest,
  ISSUER,
  location,
  newUser,
  postConsent,
  providerAuth,
  type ProviderAuth,
  type TestClient,
  type TestUser,
} from './fixtures.js'

/** A request waiting for consent, whose page loaded it (so `{ accept }` alone answers it). */
async function pendingConsent(auth: ProviderAuth, user: TestUser, client: TestClient, overrides = {}) {
  const { query, state } = authorizeQuery(client, overrides)
  const response = await getAuthorize(auth, query, user.cookie)
  const page = location(response)
  expect(page.pathname).toBe('/consent')
  const shown = await getConsentRequest(auth, cookieHeader(response, user.cookie), page.searchParams.get('consent_id') ?? '')
  expect(shown.status).toBe(200)
  return { cookie: shown.cookie, state }
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
    const tampered = cookie.replace(/(oidc_consent_prompt=)([^;.]*)/, (_, name: string, value: string) => `${name}${value.startsWith('A') ? 'B' : 'A'}${value.slice(1)}`)
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

describe('the decision applies to the request the page showed', () => {
  /** Opens authorize for `client` in a browser holding `cookie`; answers the new cookie and the page's consent_id. */
  async function openConsentPage(auth: ProviderAuth, cookie: string, client: TestClient, overrides = {}) {
    const { query, state } = authorizeQuery(client, overrides)
    const response = await getAuthorize(auth, query, cookie)
    const page = location(response)
    expect(page.pathname).toBe('/consent')
    return { cookie: cookieHeader(response, cookie), consentId: page.searchParams.get('consent_id') ?? '', state }
  }

  it('a popup authorization of another client cannot take over the user\'s "Allow"', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const trusted = await createClient(auth, { name: 'Notes' })
    const evil = await createClient(auth, { name: 'Evil', redirectURLs: ['https://evil.example/cb'] })
    const shown = await openConsentPage(auth, user.cookie, trusted)
    // Meanwhile a page of the attacker's opens its own authorization (offline_access) in a popup.
    const popup = await openConsentPage(auth, shown.cookie, evil, { redirect_uri: 'https://evil.example/cb', scope: 'openid offline_access', prompt: 'consent' })

    // The page's own answer without its id is ambiguous now: refused, nothing consumed.
    const ambiguous = await postConsent(auth, popup.cookie, true)
    expect(ambiguous.status).toBe(400)
    expect(ambiguous.body).toEqual({ code: 'CONSENT_ID_REQUIRED', message: 'Say which consent request was shown: send its consentId' })
    expect((await rows(auth, 'oauthConsent')).length).toBe(0)

    // With the id of the request it showed, "Allow" goes to the trusted client only.
    const allowed = await postConsent(auth, popup.cookie, true, shown.consentId)
    expect(allowed.status).toBe(200)
    const back = new URL(String(allowed.body.redirectURI))
    expect(back.origin + back.pathname).toBe(CALLBACK)
    expect(back.searchParams.get('state')).toBe(shown.state)
    expect((await rows(auth, 'oauthConsent')).map((row) => row.clientId)).toEqual([trusted.clientId])

    // The popup's request is still its own, and can be answered by its id (here: denied).
    const denied = await postConsent(auth, allowed.cookie, false, popup.consentId)
    expect(new URL(String(denied.body.redirectURI)).searchParams.get('error')).toBe('access_denied')
    expect(new URL(String(denied.body.redirectURI)).searchParams.get('state')).toBe(popup.state)
  })

  it('an unknown consentId is NO_PENDING_CONSENT', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const notes = await createClient(auth)
    const page = await openConsentPage(auth, user.cookie, notes)
    const reply = await postConsent(auth, page.cookie, true, 'not-a-pending-id')
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe('NO_PENDING_CONSENT')
  })
})
