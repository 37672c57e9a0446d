/**
 * SP-initiated SAML sign-in through the plugin's routes against the samlify
 * IdP (docs/sso.md#saml-sign-in): POST /sign-in/sso → the IdP → the ACS
 * (a cross-site POST) → the same-site completion step → the session. Then
 * what binds the flow to one browser, the routes' origin rules, the
 * HTTP-POST binding page and the SP metadata.
 */
import * as samlify from 'samlify'
import { beforeAll, describe, expect, it } from 'vitest'
import { sso } from '../src/index.js'
import { IDP_SSO_URL, identity, TestIdp, type Identity } from './saml-idp.js'
import { AUTH_BASE, BASE } from './saml-setup.js'
import { Browser, follow, post, postToAcs, PROVIDER_ID, samlSsoAuth, sessionOf, setUpSamlProvider, SP, type SamlSsoAuth } from './saml-sso-setup.js'

let idpKeys: Identity
let otherKeys: Identity
let spSigning: Identity
let spEncryption: Identity
let idp: TestIdp

beforeAll(() => {
  idpKeys = identity('test-idp')
  otherKeys = identity('other-idp')
  spSigning = identity('sp-signing')
  spEncryption = identity('sp-encryption')
  idp = new TestIdp({ identity: idpKeys })
})

async function rows(auth: SamlSsoAuth, model: string): Promise<Record<string, unknown>[]> {
  return (await auth.$context).adapter.findMany({ model })
}

/** Starts a sign-in in `browser` by email: the IdP URL, and the request ID the IdP reads from it. */
async function start(browser: Browser, body: Record<string, unknown> = {}) {
  const started = await post(browser, '/sign-in/sso', { email: 'ada@example.com', callbackURL: '/dashboard', errorCallbackURL: '/sign-in', ...body })
  expect(started.status).toBe(200)
  const url = started.body.url as string
  return { url, requestId: await idp.requestIdFromRedirect(url, SP), relayState: new URL(url).searchParams.get('RelayState') ?? '' }
}

describe('SP-initiated sign-in', () => {
  it('signs the IdP’s user in: user, account, membership and a session marked with the provider', async () => {
    const auth = samlSsoAuth()
    const { organizationId } = await setUpSamlProvider(auth, idpKeys)
    const browser = new Browser(auth)
    const { url, requestId, relayState } = await start(browser)
    expect(url.startsWith(`${IDP_SSO_URL}?SAMLRequest=`)).toBe(true)
    // The RelayState is an opaque handle, never a URL; requests are unsigned unless the provider signs them.
    expect(relayState).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(new URL(url).searchParams.has('Signature')).toBe(false)

    const SAMLResponse = await idp.response(SP, { inResponseTo: requestId, nameID: 'ada@example.com', attributes: { givenName: 'Ada', surname: 'Lovelace' } })
    const acs = await postToAcs(browser, { SAMLResponse, RelayState: relayState })
    expect(acs.status).toBe(303)
    expect(acs.location).toMatch(new RegExp(`^${AUTH_BASE}/sso/saml2/sp/acs/${PROVIDER_ID}/complete\\?code=[A-Za-z0-9]{32}$`))

    const completed = await follow(browser, acs.location)
    expect(completed.status).toBe(302)
    expect(completed.location).toBe('/dashboard')
    const session = await sessionOf(browser)
    expect(session?.user).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace', emailVerified: true })

    const account = (await rows(auth, 'account')).find((row) => row.providerId === PROVIDER_ID)
    expect(account).toMatchObject({ accountId: 'ada@example.com', userId: session?.user.id })
    expect((await rows(auth, 'member')).find((row) => row.userId === session?.user.id)).toMatchObject({ organizationId, role: 'member' })
    expect((await rows(auth, 'session')).filter((row) => row.userId === session?.user.id)).toMatchObject([{ ssoProviderId: PROVIDER_ID }])
    // Nothing of the flow is left: request, completion code and binding cookie are gone; the assertion ID stays claimed.
    const identifiers = (await rows(auth, 'verification')).map((row) => String(row.identifier))
    expect(identifiers.filter((id) => /^sso-saml-(request|complete|post):/.test(id))).toEqual([])
    expect(identifiers.filter((id) => id.startsWith('sso-saml-assertion:'))).toHaveLength(1)
    expect(browser.cookie(BASE, 'sso_saml')).toBeUndefined()
  })

  it('sends a refused response to the sign-in’s errorCallbackURL with the code', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys)
    const browser = new Browser(auth)
    const { requestId, relayState } = await start(browser)
    const forged = await new TestIdp({ identity: otherKeys }).response(SP, { inResponseTo: requestId })
    expect(await postToAcs(browser, { SAMLResponse: forged, RelayState: relayState })).toEqual({ status: 302, location: '/sign-in?error=invalid_signature' })
    expect(await sessionOf(browser)).toBeNull()
  })

  it('does not sign in a response whose NameID a comment splits as the shorter address', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys)
    const browser = new Browser(auth)
    const { requestId, relayState } = await start(browser)
    const signed = Buffer.from(await idp.response(SP, { inResponseTo: requestId, nameID: 'ada@example.com.evil.test' }), 'base64').toString('utf8')
    const SAMLResponse = Buffer.from(signed.replace('>ada@example.com.evil.test<', '>ada@example.com<!---->.evil.test<')).toString('base64')
    const acs = await postToAcs(browser, { SAMLResponse, RelayState: relayState })
    // The whole address is read, and it is not at the provider's domain.
    expect((await follow(browser, acs.location)).location).toBe('/sign-in?error=email_domain_mismatch')
    expect(await sessionOf(browser)).toBeNull()
  })
})

describe('one browser', () => {
  it('refuses to complete a sign-in in another browser than the one that started it (login CSRF)', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys)
    // Mallory starts a sign-in in her browser and gets the IdP's response for her own account...
    const mallory = new Browser(auth)
    const { requestId, relayState } = await start(mallory, { email: 'mallory@example.com' })
    const SAMLResponse = await idp.response(SP, { inResponseTo: requestId, nameID: 'mallory@example.com' })
    // ...and makes Alice's browser post it (an auto-submitting form on her site).
    const alice = new Browser(auth)
    const acs = await postToAcs(alice, { SAMLResponse, RelayState: relayState })
    expect(acs.status).toBe(303)
    expect((await follow(alice, acs.location)).location).toBe('/sign-in?error=invalid_state')
    expect(await sessionOf(alice)).toBeNull()
  })

  it('completes a code once', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys)
    const browser = new Browser(auth)
    const { requestId, relayState } = await start(browser)
    const acs = await postToAcs(browser, { SAMLResponse: await idp.response(SP, { inResponseTo: requestId }), RelayState: relayState })
    expect((await follow(browser, acs.location)).location).toBe('/dashboard')
    expect((await follow(browser, acs.location)).location).toBe(`${AUTH_BASE}/error?error=invalid_state`)
  })

  it('completes an IdP-initiated sign-in, when allowed, in whichever browser posts it', async () => {
    const refused = samlSsoAuth()
    await setUpSamlProvider(refused, idpKeys)
    const unsolicited = await idp.response(SP, { inResponseTo: null })
    expect(await postToAcs(new Browser(refused), { SAMLResponse: unsolicited })).toEqual({ status: 302, location: `${AUTH_BASE}/error?error=unsolicited_response` })

    const auth = samlSsoAuth({ saml: { allowIdpInitiated: true } })
    await setUpSamlProvider(auth, idpKeys)
    const browser = new Browser(auth)
    const acs = await postToAcs(browser, { SAMLResponse: await idp.response(SP, { inResponseTo: null }), RelayState: 'https://evil.test/' })
    expect((await follow(browser, acs.location)).location).toBe('/dashboard')
    expect((await sessionOf(browser))?.user.email).toBe('ada@example.com')
  })
})

describe('origin checks', () => {
  it('exempts only the ACS and the SLO service, which IdPs post to cross-site', () => {
    const exempt = Object.values(sso().endpoints)
      .filter((endpoint) => endpoint.metadata?.skipOriginCheck || endpoint.metadata?.cors)
      .map((endpoint) => endpoint.path)
    expect(exempt.sort()).toEqual(['/sso/saml2/sp/acs/:providerId', '/sso/saml2/sp/slo/:providerId'])
  })

  it('refuses SP-initiated logout posted from another origin', async () => {
    const auth = samlSsoAuth()
    const { admin } = await setUpSamlProvider(auth, idpKeys)
    const response = await post(admin, `/sso/saml2/logout/${PROVIDER_ID}`, {}, 'https://evil.test')
    expect(response.status).toBe(403)
  })
})

describe('HTTP-POST binding', () => {
  it('posts the request through our page, once, in the browser that started', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys, {}, { sso: 'post' })
    const browser = new Browser(auth)
    const started = await post(browser, '/sign-in/sso', { email: 'ada@example.com', callbackURL: '/dashboard' })
    const url = started.body.url as string
    expect(url).toMatch(new RegExp(`^${AUTH_BASE}/sso/saml2/sp/authn-request/${PROVIDER_ID}\\?id=[A-Za-z0-9]{32}$`))

    // Another browser gets nothing.
    expect((await new Browser(auth).request(url)).headers.get('location')).toBe(`${AUTH_BASE}/error?error=invalid_state`)

    const page = await browser.request(url)
    expect(page.status).toBe(200)
    const csp = page.headers.get('content-security-policy') ?? ''
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    const html = await page.text()
    expect(html).toContain(`<form method="post" action="${IDP_SSO_URL}">`)
    expect(html).toContain(`<script nonce="${nonce}">`)
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? ''
    const requestId = await idp.requestIdFromPost(field('SAMLRequest'), SP)

    // Rendered once.
    expect((await browser.request(url)).headers.get('location')).toBe(`${AUTH_BASE}/error?error=invalid_state`)

    const acs = await postToAcs(browser, { SAMLResponse: await idp.response(SP, { inResponseTo: requestId }), RelayState: field('RelayState') })
    expect((await follow(browser, acs.location)).location).toBe('/dashboard')
  })
})

describe('SP metadata', () => {
  it('describes our SP for the provider, with its signing and encryption certificates', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys, { privateKey: `${spSigning.key}${spSigning.cert}`, decryptionPvk: `${spEncryption.key}${spEncryption.cert}` })
    const response = await new Browser(auth).request(`${AUTH_BASE}/sso/saml2/sp/metadata?providerId=${PROVIDER_ID}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/xml')
    const xml = await response.text()
    const body = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s/g, '')
    const flat = xml.replace(/\s/g, '')
    expect(flat).toContain(body(spSigning.cert))
    expect(flat).toContain(body(spEncryption.cert))
    expect(flat).not.toContain(body(spSigning.key))
    expect(xml).toContain('AuthnRequestsSigned="false"')
    expect(xml).toContain('WantAssertionsSigned="true"')

    // Another library reads it as we mean it.
    const sp = samlify.ServiceProvider({ metadata: xml })
    expect(sp.entityMeta.getEntityID()).toBe(SP.entityId)
    expect(sp.entityMeta.getAssertionConsumerService('post')).toBe(SP.acs)
    expect(sp.entityMeta.getSingleLogoutService('post')).toBe(`${AUTH_BASE}/sso/saml2/sp/slo/${PROVIDER_ID}`)
    expect(sp.entityMeta.getNameIDFormat()).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress')
    expect(body(String(sp.entityMeta.getX509Certificate('signing')))).toBe(body(spSigning.cert))
    expect(body(String(sp.entityMeta.getX509Certificate('encryption')))).toBe(body(spEncryption.cert))
  })

  it('answers 404 for an unknown provider', async () => {
    const auth = samlSsoAuth()
    const response = await new Browser(auth).request(`${AUTH_BASE}/sso/saml2/sp/metadata?providerId=nobody`)
    expect(response.status).toBe(404)
  })

  it('signs AuthnRequests when the provider asks, with the key whose certificate the metadata publishes', async () => {
    const auth = samlSsoAuth()
    await setUpSamlProvider(auth, idpKeys, { authnRequestsSigned: true, privateKey: `${spSigning.key}${spSigning.cert}` })
    const metadata = await (await new Browser(auth).request(`${AUTH_BASE}/sso/saml2/sp/metadata?providerId=${PROVIDER_ID}`)).text()
    expect(metadata).toContain('AuthnRequestsSigned="true"')
    const { body } = await post(new Browser(auth), '/sign-in/sso', { email: 'ada@example.com', callbackURL: '/dashboard' })
    const url = new URL(body.url as string)
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')
    // samlify, as an IdP that wants signed requests, checks the signature with the certificate from our metadata.
    const strictIdp = samlify.IdentityProvider({ ...idp.idp.entitySetting, wantAuthnRequestsSigned: true } as Parameters<typeof samlify.IdentityProvider>[0])
    const octetString = url.search.slice(1).split('&').filter((pair) => !pair.startsWith('Signature=')).join('&')
    const parsed = await strictIdp.parseLoginRequest(samlify.ServiceProvider({ metadata }), 'redirect', { query: Object.fromEntries(url.searchParams), octetString })
    expect(parsed.extract.request?.id).toMatch(/^_[A-Za-z0-9]{32}$/)
  })
})
