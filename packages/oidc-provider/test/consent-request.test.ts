/**
 * GET /oauth2/consent?consent_id=…: what the consent page shows, from the
 * server and never from its URL (the client, whether the operator
 * registered it, its https URIs, the scopes), for this user's pending
 * request only; and how `{ accept }` without `consentId` (the spec's wire
 * format) approves only the one request the page loaded: the popup attack
 * of the review (docs/oidc-provider.md#consent).
 */
import { describe, expect, it } from 'vitest'
import { authed, cookieHeader } from '../../core/test/accounts.js'
import { BASE } from '../../core/test/helpers.js'
import {
  authorizeQuery,
  CALLBACK,
  createClient,
  getAuthorize,
  getConsentRequest,
  location,
  newUser,
  postConsent,
  providerAuth,
  type ProviderAuth,
  type TestClient,
} from './fixtures.js'

/** Opens authorize for `client` in a browser holding `cookie`; answers the new cookie and the page's consent_id. */
async function openAuthorization(auth: ProviderAuth, cookie: string, client: TestClient, overrides = {}) {
  const { query, state } = authorizeQuery(client, overrides)
  const response = await getAuthorize(auth, query, cookie)
  const page = location(response)
  expect(page.pathname).toBe('/consent')
  return { cookie: cookieHeader(response, cookie), consentId: page.searchParams.get('consent_id') ?? '', state }
}

/** POST /oauth2/consent {accept} as a consent page at `page` (a URL, or null for no Referer) posts it. */
async function answerFrom(auth: ProviderAuth, cookie: string, page: string | null, json: Record<string, unknown> = { accept: true }) {
  const response = await auth.handler(authed('/api/auth/oauth2/consent', cookie, { json, headers: page ? { referer: page } : {} }))
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function consents(auth: ProviderAuth) {
  const { db } = await auth.$context
  return db.findMany<Record<string, unknown>>({ model: 'oauthConsent' })
}

describe('GET /oauth2/consent', () => {
  it('answers the pending request as the server holds it: client, verified mark, https URIs, scopes', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth, {
      name: 'Notes',
      icon: 'https://rp.example.com/logo.png',
      metadata: { client_uri: 'https://rp.example.com', policy_uri: 'https://rp.example.com/privacy', tos_uri: 'javascript:alert(1)' },
    })
    const opened = await openAuthorization(auth, user.cookie, client, { scope: 'openid email' })
    const shown = await getConsentRequest(auth, opened.cookie, opened.consentId)
    expect(shown.status).toBe(200)
    expect(shown.response.headers.get('cache-control')).toBe('no-store')
    expect(shown.body).toEqual({
      consentId: opened.consentId,
      scopes: ['openid', 'email'],
      client: {
        clientId: client.clientId,
        name: 'Notes',
        verified: true,
        icon: 'https://rp.example.com/logo.png',
        clientURI: 'https://rp.example.com/',
        policyURI: 'https://rp.example.com/privacy',
        // Stored by the operator's code unchecked: never handed to a page as a link.
        tosURI: null,
      },
    })
  })

  it('a self-registered client is marked unverified', async () => {
    const auth = providerAuth()
    const owner = await newUser(auth)
    const registered = await auth.handler(
      authed('/api/auth/oauth2/register', owner.cookie, {
        json: { client_name: 'Gatehouse Account Security', redirect_uris: [CALLBACK], policy_uri: 'https://rp.example.com/p' },
      }),
    )
    expect(registered.status).toBe(201)
    const { client_id, client_secret } = (await registered.json()) as { client_id: string; client_secret: string }
    const user = await newUser(auth)
    const opened = await openAuthorization(auth, user.cookie, { clientId: client_id, clientSecret: client_secret })
    const shown = await getConsentRequest(auth, opened.cookie, opened.consentId)
    expect(shown.body.client).toMatchObject({ clientId: client_id, name: 'Gatehouse Account Security', verified: false, policyURI: 'https://rp.example.com/p' })
  })

  it('only for this user, with a session, for a request still pending', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const mallory = await newUser(auth)
    const client = await createClient(auth)
    const opened = await openAuthorization(auth, user.cookie, client)
    const pendingOnly = opened.cookie
      .split('; ')
      .filter((pair) => pair.includes('oidc_consent_prompt'))
      .join('; ')

    const anonymous = await getConsentRequest(auth, pendingOnly, opened.consentId)
    expect(anonymous.status).toBe(401)
    const stolen = await getConsentRequest(auth, `${mallory.cookie}; ${pendingOnly}`, opened.consentId)
    expect([stolen.status, stolen.body.code]).toEqual([400, 'NO_PENDING_CONSENT'])
    const unknown = await getConsentRequest(auth, opened.cookie, 'not-a-pending-id')
    expect([unknown.status, unknown.body.code]).toEqual([400, 'NO_PENDING_CONSENT'])
    const missing = await auth.handler(authed('/api/auth/oauth2/consent', opened.cookie))
    expect(missing.status).toBe(400)

    auth.clock.advance(600_001)
    const expired = await getConsentRequest(auth, opened.cookie, opened.consentId)
    expect([expired.status, expired.body.code]).toEqual([400, 'NO_PENDING_CONSENT'])
  })

  it('a client disabled since the authorization began is CLIENT_DISABLED', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const opened = await openAuthorization(auth, user.cookie, client)
    await auth.api.oauth2UpdateClient({ body: { clientId: client.clientId, update: { disabled: true } } })
    const shown = await getConsentRequest(auth, opened.cookie, opened.consentId)
    expect([shown.status, shown.body.code]).toEqual([400, 'CLIENT_DISABLED'])
  })
})

describe('{ accept } without consentId approves only the request the page loaded', () => {
  it('the review\'s popup attack: B pending from a popup, the page shown for A, "Allow" does not approve B', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const trusted = await createClient(auth, { name: 'Trusted Wiki' })
    const evil = await createClient(auth, { name: 'Evil', redirectURLs: ['https://evil.example/cb'] })
    // The attacker's popup leaves B pending; B's page never loads (the popup closed at once).
    const popup = await openAuthorization(auth, user.cookie, evil, { redirect_uri: 'https://evil.example/cb', scope: 'openid offline_access', prompt: 'consent' })
    // A page written to show its URL, sent to a URL naming A and no request: "Allow" there approves nothing.
    const crafted = `${BASE}/consent?client_id=${trusted.clientId}&scope=openid`
    const unshown = await answerFrom(auth, popup.cookie, crafted)
    expect([unshown.status, unshown.body.code]).toEqual([400, 'CONSENT_ID_REQUIRED'])
    expect(await consents(auth)).toEqual([])

    // The user then reaches the consent page of A, which loads A.
    const page = await openAuthorization(auth, popup.cookie, trusted)
    const shown = await getConsentRequest(auth, page.cookie, page.consentId)
    expect(shown.body.client.name).toBe('Trusted Wiki')
    const allowed = await postConsent(auth, shown.cookie, true)
    expect(allowed.status).toBe(200)
    const back = new URL(String(allowed.body.redirectURI))
    expect(back.origin + back.pathname).toBe(CALLBACK)
    expect(back.searchParams.get('state')).toBe(page.state)
    expect((await consents(auth)).map((row) => row.clientId)).toEqual([trusted.clientId])
  })

  it('A shown, then B started by a popup: refused, nothing approved', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const trusted = await createClient(auth)
    const evil = await createClient(auth, { name: 'Evil', redirectURLs: ['https://evil.example/cb'] })
    const page = await openAuthorization(auth, user.cookie, trusted)
    const shown = await getConsentRequest(auth, page.cookie, page.consentId)
    const popup = await openAuthorization(auth, shown.cookie, evil, { redirect_uri: 'https://evil.example/cb' })
    const ambiguous = await postConsent(auth, popup.cookie, true)
    expect([ambiguous.status, ambiguous.body.code]).toEqual([400, 'CONSENT_ID_REQUIRED'])
    // Even if the popup's page loaded B too: two requests shown, still refused.
    const both = await getConsentRequest(auth, popup.cookie, popup.consentId)
    const stillAmbiguous = await postConsent(auth, both.cookie, true)
    expect([stillAmbiguous.status, stillAmbiguous.body.code]).toEqual([400, 'CONSENT_ID_REQUIRED'])
    expect(await consents(auth)).toEqual([])
    // The page that names its request still works.
    const named = await postConsent(auth, both.cookie, true, page.consentId)
    expect(new URL(String(named.body.redirectURI)).searchParams.get('state')).toBe(page.state)
  })

  it('answered and expired requests do not count', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const notes = await createClient(auth)
    const wiki = await createClient(auth, { name: 'Wiki' })
    const first = await openAuthorization(auth, user.cookie, notes)
    const firstShown = await getConsentRequest(auth, first.cookie, first.consentId)
    auth.clock.advance(11 * 60_000)
    const second = await openAuthorization(auth, firstShown.cookie, wiki)
    const secondShown = await getConsentRequest(auth, second.cookie, second.consentId)
    const answered = await postConsent(auth, secondShown.cookie, true)
    expect(answered.status).toBe(200)
    expect(new URL(String(answered.body.redirectURI)).searchParams.get('state')).toBe(second.state)
    // Answered now: nothing pending is left.
    const again = await postConsent(auth, answered.cookie, true)
    expect([again.status, again.body.code]).toEqual([400, 'NO_PENDING_CONSENT'])
  })
})

describe('{ accept } alone from a page written to the spec (it shows the client_id and scope of its URL)', () => {
  it('without a Referer (a caller that is no page in a browser) it answers the one pending request', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const client = await createClient(auth)
    const opened = await openAuthorization(auth, user.cookie, client)
    const answer = await answerFrom(auth, opened.cookie, null)
    expect(answer.status).toBe(200)
    expect(new URL(String(answer.body.redirectURI)).searchParams.get('state')).toBe(opened.state)
  })

  it('from the page the authorization sent the browser to, it answers the request of that page’s consent_id', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const first = await createClient(auth, { name: 'First' })
    const second = await createClient(auth, { name: 'Second' })
    const one = await openAuthorization(auth, user.cookie, first)
    const two = await openAuthorization(auth, one.cookie, second)
    const page = `${BASE}/consent?client_id=${first.clientId}&scope=openid&consent_id=${one.consentId}`
    const answer = await answerFrom(auth, two.cookie, page)
    expect(answer.status).toBe(200)
    expect(new URL(String(answer.body.redirectURI)).searchParams.get('state')).toBe(one.state)
    expect((await consents(auth)).map((row) => row.clientId)).toEqual([first.clientId])
  })

  it('two requests pending and nothing to tell them apart: refused', async () => {
    const auth = providerAuth()
    const user = await newUser(auth)
    const one = await openAuthorization(auth, user.cookie, await createClient(auth))
    const two = await openAuthorization(auth, one.cookie, await createClient(auth))
    const answer = await answerFrom(auth, two.cookie, null)
    expect([answer.status, answer.body.code]).toEqual([400, 'CONSENT_ID_REQUIRED'])
    // A page on another origin, whose browser sends only the origin, is told apart no better.
    const originOnly = await answerFrom(auth, two.cookie, 'https://app.example.com/')
    expect([originOnly.status, originOnly.body.code]).toEqual([400, 'CONSENT_ID_REQUIRED'])
    expect(await consents(auth)).toEqual([])
  })
})
