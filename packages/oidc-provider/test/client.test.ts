// @vitest-environment jsdom
/**
 * The client half against a real in-process server with the provider: the
 * route table matches the server, each route's answer has the shape the
 * client expects, the path parameter of GET /oauth2/client/:id is filled and
 * encoded, consent answers `{ redirectURI }` to a fetch caller, errors come
 * in core's `{ code, message }` shape the client narrows, and
 * `useOAuthClient` loads a client's public face once for every reader.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { createAuthClient } from '@gatehouse/react'
import { createElement, type ReactElement } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { accountAuth } from '../../core/test/accounts.js'
import { BASE } from '../../core/test/helpers.js'
import { browser, type Browser } from '../../react/test/browser.js'
import { expectTableMatches } from '../../react/test/routes.js'
import { oidcProviderClient, useOAuthClient } from '../src/client.js'
import { oidcProviderRoutes } from '../src/client/routes.js'
import { oidcProvider } from '../src/index.js'
import { resolveOidcOptions } from '../src/options.js'
import { oidcProviderEndpoints } from '../src/routes/index.js'

afterEach(cleanup)

const PASSWORD = 'correct horse battery'
const CALLBACK = 'https://rp.example.com/callback'
// RFC 7636 Appendix B: a verifier and its S256 challenge.
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGjSstw-cM'
let counter = 0
const email = () => `oidc-client${++counter}@example.com`

function providerAuth() {
  return accountAuth({
    plugins: [oidcProvider({ loginPage: `${BASE}/login`, consentPage: `${BASE}/consent` })],
  })
}
type ProviderAuth = ReturnType<typeof providerAuth>

function clientOf(auth: ProviderAuth, tab: Browser) {
  return createAuthClient<typeof auth>({ baseURL: BASE, fetch: tab.fetch, plugins: [oidcProviderClient()] })
}
type Client = ReturnType<typeof clientOf>

async function signedIn(auth: ProviderAuth) {
  const tab = browser(auth)
  const client = clientOf(auth, tab)
  const { error } = await client.signUp.email({ name: 'Ada', email: email(), password: PASSWORD })
  expect(error).toBeNull()
  return { tab, client }
}

async function registered(client: Client, name = 'Notes') {
  const { data, error } = await client.oauth2.register({ client_name: name, redirect_uris: [CALLBACK], logo_uri: 'https://rp.example.com/logo.png' })
  expect(error).toBeNull()
  if (!data) throw new Error('registration failed')
  return data
}

/** Opens authorize in the tab, as the browser would by navigation, and answers where it was sent. */
async function authorize(tab: Browser, clientId: string, state: string): Promise<URL> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CALLBACK,
    scope: 'openid email',
    state,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  })
  const response = await tab.fetch(`${BASE}/api/auth/oauth2/authorize?${query}`, { redirect: 'manual' })
  expect(response.status).toBe(302)
  return new URL(response.headers.get('location') ?? '', BASE)
}

describe('oidc-provider route table', () => {
  it('matches the server; the protocol routes a relying party speaks to are left out on purpose', () => {
    const endpoints = oidcProviderEndpoints(resolveOidcOptions({ loginPage: `${BASE}/login`, consentPage: `${BASE}/consent` }))
    const protocol = 'spoken by relying parties (OAuth), or reached by navigation'
    const leftOut = Object.fromEntries(
      Object.entries(endpoints)
        .filter(([, endpoint]) => !['/oauth2/consent', '/oauth2/client/:id', '/oauth2/register', '/oauth2/grants', '/oauth2/grants/revoke'].includes(endpoint.path))
        .map(([name]) => [name, protocol]),
    )
    expectTableMatches(oidcProviderRoutes, endpoints, leftOut)
    expect(Object.values(oidcProviderRoutes.oauth2).map((route) => `${route.method} ${route.path}`)).toEqual([
      'GET /oauth2/consent',
      'POST /oauth2/consent',
      'GET /oauth2/client/:id',
      'POST /oauth2/register',
      'GET /oauth2/grants',
      'POST /oauth2/grants/revoke',
    ])
  })
})

describe('calls', () => {
  it('register answers the RFC 7591 response; clientInfo fills the path and answers the public face only', async () => {
    const auth = providerAuth()
    const { tab, client } = await signedIn(auth)
    const created = await registered(client)
    expect(created).toMatchObject({ client_secret_expires_at: 0, redirect_uris: [CALLBACK], client_name: 'Notes' })
    expect(created.client_secret).toEqual(expect.any(String))

    const { data, error } = await client.oauth2.clientInfo({ id: created.client_id })
    expect(error).toBeNull()
    expect(data).toEqual({ clientId: created.client_id, name: 'Notes', icon: 'https://rp.example.com/logo.png' })
    expect(tab.requests.at(-1)).toMatchObject({ method: 'GET', path: `/api/auth/oauth2/client/${created.client_id}` })
  })

  it('a path parameter is one encoded segment: an id with a slash or dots cannot reach another route', async () => {
    const auth = providerAuth()
    const { tab, client } = await signedIn(auth)
    const { data, error } = await client.oauth2.clientInfo({ id: '../../get-session' })
    expect(data).toBeNull()
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    expect(tab.requests.at(-1)?.path).toBe('/api/auth/oauth2/client/..%2F..%2Fget-session')

    // A dot segment or nothing at all would be resolved away by the URL parser: refused before any request.
    const sent = tab.requests.length
    for (const id of ['..', '.', '']) {
      const refused = await client.oauth2.clientInfo({ id })
      expect(refused.error).toMatchObject({ status: 0, code: 'CLIENT_VALIDATION_ERROR', issues: [{ path: 'input.id', message: 'not a path segment' }] })
    }
    expect(tab.requests.length).toBe(sent)
  })

  it('registration without a session is refused (dynamic registration is off)', async () => {
    const auth = providerAuth()
    const client = clientOf(auth, browser(auth))
    const { data, error } = await client.oauth2.register({ client_name: 'Anon', redirect_uris: [CALLBACK] })
    expect(data).toBeNull()
    expect(error?.status).toBe(401)
  })

  it('consent from fetch answers { redirectURI }: accept carries the code, state and iss; deny carries access_denied', async () => {
    const auth = providerAuth()
    const { tab, client } = await signedIn(auth)
    const created = await registered(client)

    const consentPage = await authorize(tab, created.client_id, 'first')
    expect(`${consentPage.origin}${consentPage.pathname}`).toBe(`${BASE}/consent`)
    // The page shows what the server holds for its consent_id, then answers with the spec's `{ accept }` alone.
    const shown = await client.oauth2.consentRequest({ consent_id: consentPage.searchParams.get('consent_id') ?? '' })
    expect(shown.data).toEqual({
      consentId: consentPage.searchParams.get('consent_id'),
      scopes: ['openid', 'email'],
      client: { clientId: created.client_id, name: 'Notes', verified: false, icon: 'https://rp.example.com/logo.png', clientURI: null, policyURI: null, tosURI: null },
    })
    const allowed = await client.oauth2.consent({ accept: true })
    expect(allowed.error).toBeNull()
    const back = new URL(allowed.data?.redirectURI ?? '')
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK)
    expect(back.searchParams.get('code')).toEqual(expect.any(String))
    expect(back.searchParams.get('state')).toBe('first')
    expect(back.searchParams.get('iss')).toBe(`${BASE}/api/auth`)

    // Another client, denied.
    const other = await registered(client, 'Other')
    const otherPage = await authorize(tab, other.client_id, 'second')
    const denied = await client.oauth2.consent({ accept: false, consentId: otherPage.searchParams.get('consent_id') ?? '' })
    const refused = new URL(denied.data?.redirectURI ?? '')
    expect(refused.searchParams.get('error')).toBe('access_denied')
    expect(refused.searchParams.get('state')).toBe('second')
    expect(refused.searchParams.get('code')).toBeNull()

    // Nothing pending any more: a second answer has nothing to act on, and says so in a code the page can narrow.
    const again = await client.oauth2.consent({ accept: true })
    expect(again.data).toBeNull()
    expect(again.error).toEqual({ status: 400, code: 'NO_PENDING_CONSENT', message: 'No pending consent request' })
  })

  it('the browser-facing routes answer errors in core\'s { code, message } shape, which the client narrows', async () => {
    const auth = providerAuth()
    const { client } = await signedIn(auth)
    const unknown = await client.oauth2.clientInfo({ id: 'no-such-client' })
    expect(unknown.error).toEqual({ status: 404, code: 'CLIENT_NOT_FOUND', message: 'Client not found' })
    if (unknown.error?.code === 'CLIENT_NOT_FOUND') expect(unknown.error.status).toBe(404)

    // On the wire, as any fetch caller sees it.
    const raw = await auth.handler(new Request(`${BASE}/api/auth/oauth2/client/no-such-client`))
    expect(raw.status).toBe(404)
    expect(await raw.json()).toEqual({ code: 'CLIENT_NOT_FOUND', message: 'Client not found' })

    const pending = await client.oauth2.consent({ accept: false })
    expect(pending.error).toEqual({ status: 400, code: 'NO_PENDING_CONSENT', message: 'No pending consent request' })
  })
})

describe('useOAuthClient', () => {
  function Header({ client, clientId, id }: { client: Client; clientId: string; id: string }): ReactElement {
    const { data, error, isPending } = useOAuthClient(client, clientId)
    const text = isPending ? 'loading' : error ? `error ${error.status} ${error.code}` : `${data?.name} (${data?.icon ?? 'no icon'})`
    return createElement('span', { 'data-testid': id }, text)
  }

  it('loads the client once for every reader, and shows an unknown one as an error', async () => {
    const auth = providerAuth()
    const { tab, client } = await signedIn(auth)
    const created = await registered(client)
    const path = `/oauth2/client/${created.client_id}`

    render(
      createElement(
        'div',
        null,
        createElement(Header, { client, clientId: created.client_id, id: 'one' }),
        createElement(Header, { client, clientId: created.client_id, id: 'two' }),
        createElement(Header, { client, clientId: 'no-such-client', id: 'unknown' }),
      ),
    )
    expect(screen.getByTestId('one').textContent).toBe('loading')
    await waitFor(() => expect(screen.getByTestId('one').textContent).toBe('Notes (https://rp.example.com/logo.png)'))
    expect(screen.getByTestId('two').textContent).toBe('Notes (https://rp.example.com/logo.png)')
    await waitFor(() => expect(screen.getByTestId('unknown').textContent).toBe('error 404 CLIENT_NOT_FOUND'))
    expect(tab.count(path)).toBe(1)

    // A later reader of the same client reuses the answer.
    cleanup()
    render(createElement(Header, { client, clientId: created.client_id, id: 'later' }))
    expect(screen.getByTestId('later').textContent).toBe('Notes (https://rp.example.com/logo.png)')
    await act(() => Promise.resolve())
    expect(tab.count(path)).toBe(1)
  })
})
