/**
 * SAML single logout through the plugin's routes with the samlify IdP
 * (docs/sso.md#saml-single-logout): the IdP signs a user out (a signed
 * LogoutRequest to our SLO service ends the sessions signed in through that
 * provider, and only those), and the user signs out of the app and the IdP
 * (our LogoutRequest names the SAML subject and session; the IdP's
 * LogoutResponse brings the browser back to the callbackURL).
 */
import { createSession, type Row, type User } from '@gatehouse/core'
import * as samlify from 'samlify'
import { beforeAll, describe, expect, it } from 'vitest'
import { IDP_SLO_URL, identity, TestIdp, type Identity } from './saml-idp.js'
import { AUTH_BASE } from './saml-setup.js'
import { Browser, follow, post, postToAcs, PROVIDER_ID, samlSsoAuth, sessionOf, setUpSamlProvider, SLO, SP, type SamlSsoAuth } from './saml-sso-setup.js'

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
const SESSION_INDEX = '_idp-session-7'

let idpKeys: Identity
let otherKeys: Identity
let spSigning: Identity
let idp: TestIdp

beforeAll(() => {
  idpKeys = identity('test-idp')
  otherKeys = identity('other-idp')
  spSigning = identity('sp-signing')
  idp = new TestIdp({ identity: idpKeys })
})

/** Our SP as the IdP's logout side sees it; `signed`: the IdP signs what it sends us. */
function spForIdp(signed: boolean) {
  return samlify.ServiceProvider({
    entityID: SP.entityId,
    singleLogoutService: [{ Binding: REDIRECT, Location: SLO }],
    wantLogoutRequestSigned: signed,
    wantLogoutResponseSigned: signed,
  })
}

/** Ada signs in through the provider in a fresh browser. */
async function signedIn(auth: SamlSsoAuth, nameID = 'ada@example.com'): Promise<Browser> {
  const browser = new Browser(auth)
  const started = await post(browser, '/sign-in/sso', { email: nameID, callbackURL: '/dashboard' })
  const url = started.body.url as string
  const requestId = await idp.requestIdFromRedirect(url, SP)
  const SAMLResponse = await idp.response(SP, { inResponseTo: requestId, nameID, sessionIndex: SESSION_INDEX })
  const acs = await postToAcs(browser, { SAMLResponse, RelayState: new URL(url).searchParams.get('RelayState') ?? '' })
  expect((await follow(browser, acs.location)).location).toBe('/dashboard')
  return browser
}

async function sessionsOf(auth: SamlSsoAuth, email: string): Promise<Record<string, unknown>[]> {
  const context = await auth.$context
  const user = await context.adapter.findOne<User & Row>({ model: 'user', where: [{ field: 'email', value: email }] })
  return context.adapter.findMany({ model: 'session', where: [{ field: 'userId', value: user?.id ?? '' }] })
}

describe('IdP-initiated logout', () => {
  it('ends the user’s sessions from this provider, keeps their others, and answers the IdP', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys)
    const browser = await signedIn(auth)
    const elsewhere = await signedIn(auth)
    const grace = await signedIn(auth, 'grace@example.com')
    const context = await auth.$context
    const ada = (await context.adapter.findOne<User & Row>({ model: 'user', where: [{ field: 'email', value: 'ada@example.com' }] })) as User
    // A session of Ada's that no SAML sign-in made (a password, say).
    await createSession(context, ada)
    expect(await sessionsOf(auth, 'ada@example.com')).toHaveLength(3)

    const request = idp.idp.createLogoutRequest(spForIdp(true), 'redirect', { logoutNameID: 'ada@example.com', sessionIndex: SESSION_INDEX }, { relayState: 'idp-state' })
    const response = await browser.request(request.context)
    expect(response.status).toBe(302)
    const location = response.headers.get('location') ?? ''
    expect(location.startsWith(`${IDP_SLO_URL}?SAMLResponse=`)).toBe(true)
    expect(new URL(location).searchParams.get('RelayState')).toBe('idp-state')
    // The IdP reads a Success answering its request.
    const parsed = await idp.idp.parseLogoutResponse(spForIdp(true), 'redirect', { query: Object.fromEntries(new URL(location).searchParams) })
    expect(parsed.extract.response?.inResponseTo).toBe(request.id)

    expect(await sessionOf(browser)).toBeNull()
    expect(await sessionOf(elsewhere)).toBeNull()
    expect((await sessionsOf(auth, 'ada@example.com')).map((row) => row.ssoProviderId ?? null)).toEqual([null])
    expect((await sessionOf(grace))?.user.email).toBe('grace@example.com')
  })

  it('takes a signed LogoutRequest on the HTTP-POST binding too, posted cross-site', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys)
    const browser = await signedIn(auth)
    const target = samlify.ServiceProvider({
      entityID: SP.entityId,
      singleLogoutService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: SLO }],
      wantLogoutRequestSigned: true,
    })
    const request = idp.idp.createLogoutRequest(target, 'post', { logoutNameID: 'ada@example.com' }) as { context: string }
    const response = await browser.request(SLO, { form: { SAMLRequest: request.context }, headers: { origin: 'https://idp.test' } })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')?.startsWith(`${IDP_SLO_URL}?SAMLResponse=`)).toBe(true)
    expect(await sessionOf(browser)).toBeNull()
  })

  it('refuses an unsigned LogoutRequest on the HTTP-POST binding', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys)
    const browser = await signedIn(auth)
    const target = samlify.ServiceProvider({ entityID: SP.entityId, singleLogoutService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: SLO }] })
    const request = idp.idp.createLogoutRequest(target, 'post', { logoutNameID: 'ada@example.com' }) as { context: string }
    const response = await browser.request(SLO, { form: { SAMLRequest: request.context }, headers: { origin: 'https://idp.test' } })
    expect(response.status).toBe(400)
    expect((await sessionOf(browser))?.user.email).toBe('ada@example.com')
  })

  it('refuses an unsigned LogoutRequest on the redirect binding', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys)
    const browser = await signedIn(auth)
    const request = idp.idp.createLogoutRequest(spForIdp(false), 'redirect', { logoutNameID: 'ada@example.com' })
    expect(new URL(request.context).searchParams.has('Signature')).toBe(false)
    expect((await browser.request(request.context)).status).toBe(400)
    expect((await sessionOf(browser))?.user.email).toBe('ada@example.com')
  })

  it('refuses a LogoutRequest signed by another key', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys)
    const browser = await signedIn(auth)
    const request = new TestIdp({ identity: otherKeys }).idp.createLogoutRequest(spForIdp(true), 'redirect', { logoutNameID: 'ada@example.com' })
    expect((await browser.request(request.context)).status).toBe(400)
    expect((await sessionOf(browser))?.user.email).toBe('ada@example.com')
  })
})

describe('SP-initiated logout', () => {
  it('ends the session, sends a signed LogoutRequest for the SAML subject, and lands on callbackURL after the IdP’s answer', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys, { privateKey: `${spSigning.key}${spSigning.cert}` })
    const browser = await signedIn(auth)
    const out = await post(browser, `/sso/saml2/logout/${PROVIDER_ID}`, { callbackURL: '/bye' })
    expect(out.status).toBe(302)
    const location = out.response.headers.get('location') ?? ''
    expect(location.startsWith(`${IDP_SLO_URL}?SAMLRequest=`)).toBe(true)
    expect(await sessionOf(browser)).toBeNull()

    // The IdP checks our signature with the certificate from our metadata, and reads the subject.
    const metadata = await (await browser.request(`${AUTH_BASE}/sso/saml2/sp/metadata?providerId=${PROVIDER_ID}`)).text()
    const strictIdp = samlify.IdentityProvider({ ...idp.idp.entitySetting, wantLogoutRequestSigned: true } as Parameters<typeof samlify.IdentityProvider>[0])
    const url = new URL(location)
    const octetString = url.search.slice(1).split('&').filter((pair) => !pair.startsWith('Signature=')).join('&')
    const parsed = await strictIdp.parseLogoutRequest(samlify.ServiceProvider({ metadata }), 'redirect', { query: Object.fromEntries(url.searchParams), octetString })
    expect(parsed.extract.nameID).toBe('ada@example.com')
    expect(parsed.extract.sessionIndex).toBe(SESSION_INDEX)

    const answer = idp.idp.createLogoutResponse(spForIdp(true), { extract: parsed.extract }, 'redirect', { relayState: url.searchParams.get('RelayState') ?? '' })
    const back = await browser.request(answer.context)
    expect(back.headers.get('location')).toBe('/bye')
    // The request is answered once.
    expect((await browser.request(answer.context)).headers.get('location')).toBe(`${AUTH_BASE}/error?error=invalid_logout_response`)
  })

  it('refuses an unsigned LogoutResponse', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys)
    const browser = await signedIn(auth)
    const out = await post(browser, `/sso/saml2/logout/${PROVIDER_ID}`, { callbackURL: '/bye' })
    const url = new URL(out.response.headers.get('location') ?? '')
    const parsed = await idp.idp.parseLogoutRequest(spForIdp(false), 'redirect', { query: Object.fromEntries(url.searchParams) })
    const answer = idp.idp.createLogoutResponse(spForIdp(false), { extract: parsed.extract }, 'redirect', { relayState: url.searchParams.get('RelayState') ?? '' })
    expect((await browser.request(answer.context)).headers.get('location')).toBe(`${AUTH_BASE}/error?error=invalid_logout_response`)
  })

  it('answers 400 when the IdP has no single logout service', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys, { idpMetadata: { entityID: idp.entityId } })
    const browser = await signedIn(auth)
    const out = await post(browser, `/sso/saml2/logout/${PROVIDER_ID}`, {})
    expect(out).toMatchObject({ status: 400, body: { code: 'IDP_SLO_NOT_SUPPORTED' } })
    expect((await sessionOf(browser))?.user.email).toBe('ada@example.com')
  })
})
