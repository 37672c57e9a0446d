/**
 * The ACS's checks on responses from a samlify IdP (docs/sso.md#saml-checks),
 * driven through core's endpoint layer: a valid SP-initiated response
 * becomes a profile, and each rule refuses the response that breaks it with
 * its own code.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { IDP_ENTITY_ID, identity, NAMEID_PERSISTENT, TestIdp, type Identity } from './saml-idp.js'
import { relayStateOf, samlProvider, samlTestAuth, spView } from './saml-setup.js'

let idpKeys: Identity
let idp: TestIdp

beforeAll(() => {
  idpKeys = identity('test-idp')
  idp = new TestIdp({ identity: idpKeys })
})

async function signIn(options: { policy?: { allowIdpInitiated?: boolean; clockSkewMs?: number } } = {}) {
  const provider = samlProvider('acme', { cert: idpKeys.cert })
  const auth = await samlTestAuth([provider], options)
  const sp = spView(provider)
  const started = await auth.start('acme', { callbackURL: '/dashboard', errorCallbackURL: '/sign-in' })
  const requestId = await idp.requestIdFromRedirect(started.url, sp)
  return { auth, provider, sp, started, requestId, relayState: relayStateOf(started.url) }
}

describe('a valid SP-initiated response', () => {
  it('becomes the profile, with the landing the request stored and the browser binding', async () => {
    const { auth, sp, requestId, relayState } = await signIn()
    const SAMLResponse = await idp.response(sp, {
      inResponseTo: requestId,
      nameID: 'ada@example.com',
      attributes: { givenName: 'Ada', surname: 'Lovelace', groups: ['engineering', 'admins'] },
      sessionIndex: '_idp-session-1',
    })
    const result = await auth.post('acme', { SAMLResponse, RelayState: relayState })
    expect(result).toMatchObject({
      ok: true,
      profile: { accountId: 'ada@example.com', email: 'ada@example.com', emailVerified: null, name: 'Ada Lovelace', groups: ['engineering', 'admins'] },
      subject: { nameID: 'ada@example.com', sessionIndex: '_idp-session-1' },
      landing: { callbackURL: '/dashboard', errorURL: '/sign-in', newUserURL: null, requestSignUp: false },
      binding: relayState,
    })
    // The request is consumed and the assertion ID claimed.
    expect(await auth.verificationRows('sso-saml-request:')).toBe(0)
    expect(await auth.verificationRows('sso-saml-assertion:')).toBe(1)
  })

  it('is accepted signed as a whole response around an unsigned assertion when the provider allows it', async () => {
    const provider = samlProvider('acme', { cert: idpKeys.cert, wantAssertionsSigned: false })
    const auth = await samlTestAuth([provider])
    const sp = spView(provider)
    const started = await auth.start('acme')
    const requestId = await idp.requestIdFromRedirect(started.url, sp)
    const SAMLResponse = await idp.response(sp, { inResponseTo: requestId }, { sign: 'response' })
    expect((await auth.post('acme', { SAMLResponse, RelayState: relayStateOf(started.url) })).ok).toBe(true)
  })

  it('takes the email from the mail attribute when the NameID is not an address', async () => {
    const { auth, sp, requestId, relayState } = await signIn()
    const SAMLResponse = await idp.response(sp, {
      inResponseTo: requestId,
      nameID: 'a1b2c3',
      nameIDFormat: NAMEID_PERSISTENT,
      attributes: { mail: 'ada@example.com', displayName: 'Ada L.' },
    })
    expect(await auth.post('acme', { SAMLResponse, RelayState: relayState })).toMatchObject({
      ok: true,
      profile: { accountId: 'a1b2c3', email: 'ada@example.com', name: 'Ada L.' },
    })
  })
})

describe('the provider’s configuration', () => {
  it('reads the IdP’s entity ID and endpoints from its metadata document, and takes a bare base64 certificate', async () => {
    const postOnly = new TestIdp({ identity: idpKeys, sso: 'post' })
    const provider = samlProvider('acme', {
      cert: idpKeys.cert.replace(/-----[A-Z ]+-----|\s/g, ''),
      entryPoint: 'https://idp.test/ignored',
      idpMetadata: { metadata: postOnly.idp.getMetadata() },
    })
    const auth = await samlTestAuth([provider])
    const sp = spView(provider)
    // The metadata lists only an HTTP-POST endpoint: the sign-in goes through our page.
    const started = await auth.start('acme')
    expect(started.url).toMatch(/\/sso\/saml2\/sp\/authn-request\/acme\?id=/)
    const form = await auth.handler(new Request(started.url, { headers: { cookie: started.cookie } }))
    const html = await form.text()
    expect(html).toContain('action="https://idp.test/sso"')
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? ''
    const requestId = await postOnly.requestIdFromPost(field('SAMLRequest'), sp)
    // The entity ID from the metadata is the Issuer assertions must carry.
    const impostor = await idp.response(sp, { inResponseTo: requestId, issuer: 'https://impostor.test/metadata' })
    expect(await auth.post('acme', { SAMLResponse: impostor, RelayState: field('RelayState') })).toMatchObject({ ok: false, code: 'invalid_issuer' })
    const genuine = await idp.response(sp, { inResponseTo: requestId, issuer: IDP_ENTITY_ID })
    expect(await auth.post('acme', { SAMLResponse: genuine, RelayState: field('RelayState') })).toMatchObject({ ok: true })
  })

  it('refuses to start a sign-in that must sign its request without a private key', async () => {
    const auth = await samlTestAuth([samlProvider('acme', { cert: idpKeys.cert, authnRequestsSigned: true })])
    await expect(auth.start('acme')).rejects.toThrow(/start answered 400.*SAML_NOT_CONFIGURED/)
  })
})
