/**
 * One test per rule of the ACS (docs/sso.md#saml-checks): each response is
 * valid but for the one thing the rule is about, so it would be accepted
 * without that rule, and it is refused with the rule's code.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { identity, TestIdp, type Identity, type ResponseFields, type ResponseOptions } from './saml-idp.js'
import { relayStateOf, samlProvider, samlTestAuth, spView, type SamlTestAuth } from './saml-setup.js'

let idpKeys: Identity
let otherKeys: Identity
let spEncryption: Identity
let idp: TestIdp

beforeAll(() => {
  idpKeys = identity('test-idp')
  otherKeys = identity('other-idp')
  spEncryption = identity('sp-encryption')
  idp = new TestIdp({ identity: idpKeys })
})

interface Flow {
  readonly auth: SamlTestAuth
  readonly relayState: string
  readonly requestId: string
  respond(fields?: ResponseFields, options?: ResponseOptions, by?: TestIdp): Promise<string>
}

/** A started sign-in of provider `acme`, and a way to answer it. */
async function started(options: Parameters<typeof samlTestAuth>[1] & { saml?: Parameters<typeof samlProvider>[1] } = {}): Promise<Flow> {
  const provider = samlProvider('acme', options.saml ?? { cert: idpKeys.cert })
  const auth = await samlTestAuth([provider], options)
  const sp = spView(provider, spEncryption.cert)
  const { url } = await auth.start('acme', { callbackURL: '/dashboard', errorCallbackURL: '/sign-in' })
  const requestId = await idp.requestIdFromRedirect(url, sp)
  return {
    auth,
    requestId,
    relayState: relayStateOf(url),
    respond: (fields = {}, responseOptions = {}, by = idp) => by.response(sp, { inResponseTo: requestId, ...fields }, responseOptions),
  }
}

const minutes = (n: number) => new Date(Date.now() + n * 60_000)

describe('signature', () => {
  it('refuses a response signed by another provider’s IdP key', async () => {
    const flow = await started()
    const other = new TestIdp({ identity: otherKeys })
    const result = await flow.auth.post('acme', { SAMLResponse: await flow.respond({}, {}, other), RelayState: flow.relayState })
    expect(result).toMatchObject({ ok: false, code: 'invalid_signature', landing: { errorURL: '/sign-in' } })
  })

  it('refuses a response signed only as a whole while the provider wants signed assertions', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', { SAMLResponse: await flow.respond({}, { sign: 'response' }), RelayState: flow.relayState })
    expect(result).toMatchObject({ ok: false, code: 'invalid_signature' })
  })
})

describe('binding to our request', () => {
  it('refuses an IdP-initiated response (no InResponseTo) by default', async () => {
    const provider = samlProvider('acme', { cert: idpKeys.cert })
    const auth = await samlTestAuth([provider])
    const SAMLResponse = await idp.response(spView(provider), { inResponseTo: null })
    expect(await auth.post('acme', { SAMLResponse })).toMatchObject({ ok: false, code: 'unsolicited_response', landing: null })
  })

  it('accepts an IdP-initiated response with saml.allowIdpInitiated, landing on the provider’s callbackUrl and bound to no browser', async () => {
    const provider = samlProvider('acme', { cert: idpKeys.cert, callbackUrl: '/welcome' })
    const auth = await samlTestAuth([provider], { policy: { allowIdpInitiated: true } })
    // An IdP-initiated RelayState is often a URL: it is ignored, never redirected to.
    const SAMLResponse = await idp.response(spView(provider), { inResponseTo: null })
    expect(await auth.post('acme', { SAMLResponse, RelayState: 'https://evil.test/' })).toMatchObject({
      ok: true,
      landing: { callbackURL: '/welcome', errorURL: null },
      binding: null,
    })
  })

  it('refuses a response to a request nobody stored', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', { SAMLResponse: await flow.respond({ inResponseTo: '_forged-request-id' }), RelayState: flow.relayState })
    expect(result).toMatchObject({ ok: false, code: 'invalid_in_response_to' })
  })

  it('refuses a response to another provider’s request, posted to this provider’s ACS', async () => {
    const acme = samlProvider('acme', { cert: idpKeys.cert })
    // Same IdP, same certificate: only the request binding tells them apart.
    const globex = samlProvider('globex', { cert: idpKeys.cert })
    const auth = await samlTestAuth([acme, globex])
    const { url } = await auth.start('globex')
    const requestId = await idp.requestIdFromRedirect(url, spView(globex))
    // The IdP answers globex's request, addressed to acme's ACS.
    const SAMLResponse = await idp.response(spView(acme), { inResponseTo: requestId })
    expect(await auth.post('acme', { SAMLResponse, RelayState: relayStateOf(url) })).toMatchObject({ ok: false, code: 'invalid_in_response_to' })
    // The request is still globex's, unconsumed.
    expect(await auth.verificationRows('sso-saml-request:')).toBe(1)
  })

  it('refuses a RelayState other than the request’s', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', { SAMLResponse: await flow.respond(), RelayState: 'another-handle' })
    expect(result).toMatchObject({ ok: false, code: 'invalid_relay_state' })
  })

  it('refuses a response whose signed bearer confirmation answers another request than the Response says', async () => {
    const flow = await started()
    // A second request in the same auth, and a response whose Response element names it while the signed
    // SubjectConfirmationData names the first: the unsigned Response attribute must not decide.
    const second = await flow.auth.start('acme')
    const secondId = await idp.requestIdFromRedirect(second.url, spView(samlProvider('acme', { cert: idpKeys.cert })))
    const signed = Buffer.from(await flow.respond(), 'base64').toString('utf8')
    const tampered = signed.replace(/(<samlp:Response[^>]*InResponseTo=")[^"]+"/, `$1${secondId}"`)
    expect(tampered).not.toBe(signed)
    const result = await flow.auth.post('acme', { SAMLResponse: Buffer.from(tampered).toString('base64'), RelayState: relayStateOf(second.url) })
    expect(result).toMatchObject({ ok: false, code: 'invalid_in_response_to' })
  })
})

describe('conditions', () => {
  it('refuses a wrong audience', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', { SAMLResponse: await flow.respond({ audience: 'https://other-sp.test/metadata' }), RelayState: flow.relayState })
    expect(result).toMatchObject({ ok: false, code: 'invalid_audience' })
  })

  it('refuses an assertion past its NotOnOrAfter by more than the skew', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', {
      SAMLResponse: await flow.respond({ notBefore: minutes(-10), notOnOrAfter: minutes(-2) }),
      RelayState: flow.relayState,
    })
    expect(result).toMatchObject({ ok: false, code: 'assertion_expired' })
  })

  it('accepts an assertion expired by less than the skew (60 s)', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', {
      SAMLResponse: await flow.respond({ notBefore: minutes(-10), notOnOrAfter: new Date(Date.now() - 20_000) }),
      RelayState: flow.relayState,
    })
    expect(result.ok).toBe(true)
  })

  it('refuses an assertion whose NotBefore is further ahead than the skew', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', {
      SAMLResponse: await flow.respond({ notBefore: minutes(3), notOnOrAfter: minutes(10) }),
      RelayState: flow.relayState,
    })
    expect(result).toMatchObject({ ok: false, code: 'assertion_not_yet_valid' })
  })

  it('honours a configured skew', async () => {
    const flow = await started({ policy: { clockSkewMs: 5_000 } })
    const result = await flow.auth.post('acme', {
      SAMLResponse: await flow.respond({ notBefore: minutes(-10), notOnOrAfter: new Date(Date.now() - 20_000) }),
      RelayState: flow.relayState,
    })
    expect(result).toMatchObject({ ok: false, code: 'assertion_expired' })
  })

  it('refuses a bearer confirmation addressed to another Recipient', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', { SAMLResponse: await flow.respond({ recipient: 'https://other-sp.test/acs' }), RelayState: flow.relayState })
    expect(result).toMatchObject({ ok: false, code: 'invalid_recipient' })
  })

  it('refuses a Destination other than our ACS', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', { SAMLResponse: await flow.respond({ destination: 'https://other-sp.test/acs' }), RelayState: flow.relayState })
    expect(result).toMatchObject({ ok: false, code: 'invalid_destination' })
  })

  it('refuses an assertion from another Issuer than the provider’s IdP entity ID', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', { SAMLResponse: await flow.respond({ issuer: 'https://impostor.test/metadata' }), RelayState: flow.relayState })
    expect(result).toMatchObject({ ok: false, code: 'invalid_issuer' })
  })

  it('ends a response with an error status in an error redirect code', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', {
      SAMLResponse: await flow.respond({ statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }),
      RelayState: flow.relayState,
    })
    expect(result).toMatchObject({ ok: false, code: 'saml_error_status', landing: { errorURL: '/sign-in' } })
  })
})

describe('single use', () => {
  it('refuses the second POST of the same response (the request is consumed)', async () => {
    const flow = await started()
    const form = { SAMLResponse: await flow.respond(), RelayState: flow.relayState }
    expect((await flow.auth.post('acme', form)).ok).toBe(true)
    expect(await flow.auth.post('acme', form)).toMatchObject({ ok: false, code: 'invalid_in_response_to' })
  })

  it('lets exactly one of two concurrent POSTs of one response through', async () => {
    const flow = await started()
    const form = { SAMLResponse: await flow.respond(), RelayState: flow.relayState }
    const results = await Promise.all([flow.auth.post('acme', form), flow.auth.post('acme', form)])
    expect(results.filter((result) => result.ok)).toHaveLength(1)
  })

  it('refuses a replayed IdP-initiated assertion (the assertion ID store)', async () => {
    const provider = samlProvider('acme', { cert: idpKeys.cert })
    const auth = await samlTestAuth([provider], { policy: { allowIdpInitiated: true } })
    const form = { SAMLResponse: await idp.response(spView(provider), { inResponseTo: null }) }
    expect((await auth.post('acme', form)).ok).toBe(true)
    expect(await auth.post('acme', form)).toMatchObject({ ok: false, code: 'replayed_assertion' })
  })

  it('keeps the assertion ID store in secondary storage when there is one', async () => {
    const provider = samlProvider('acme', { cert: idpKeys.cert })
    const auth = await samlTestAuth([provider], { policy: { allowIdpInitiated: true }, secondaryStorage: 'memory' })
    const form = { SAMLResponse: await idp.response(spView(provider), { inResponseTo: null }) }
    expect((await auth.post('acme', form)).ok).toBe(true)
    expect(await auth.post('acme', form)).toMatchObject({ ok: false, code: 'replayed_assertion' })
    expect(await auth.verificationRows('sso-saml-assertion:')).toBe(0)
  })
})

describe('encrypted assertions', () => {
  it('decrypts an assertion encrypted to the provider’s decryptionPvk', async () => {
    const flow = await started({ saml: { cert: idpKeys.cert, decryptionPvk: spEncryption.key } })
    const result = await flow.auth.post('acme', { SAMLResponse: await flow.respond({ nameID: 'grace@example.com' }, { encrypt: true }), RelayState: flow.relayState })
    expect(result).toMatchObject({ ok: true, profile: { accountId: 'grace@example.com' } })
  })

  it('refuses an encrypted assertion when the provider has no decryption key', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', { SAMLResponse: await flow.respond({}, { encrypt: true }), RelayState: flow.relayState })
    expect(result.ok).toBe(false)
  })
})

describe('profile', () => {
  it('refuses a transient NameID without mapping.id', async () => {
    const flow = await started()
    const result = await flow.auth.post('acme', {
      SAMLResponse: await flow.respond({ nameID: '_t1', nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient', attributes: { email: 'ada@example.com' } }),
      RelayState: flow.relayState,
    })
    expect(result).toMatchObject({ ok: false, code: 'transient_name_id' })
  })

  it('reads the attributes the provider’s mapping names', async () => {
    const flow = await started({
      saml: { cert: idpKeys.cert, mapping: { id: 'uid', email: 'corpMail', name: 'fullName', groups: 'teams', emailVerified: 'verified', extraFields: { department: 'dept' } } },
    })
    const result = await flow.auth.post('acme', {
      SAMLResponse: await flow.respond({
        nameID: '_t1',
        nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
        attributes: { uid: 'u-42', corpMail: 'ada@example.com', fullName: 'Ada King', teams: ['a', 'b'], verified: 'true', dept: 'R&D' },
      }),
      RelayState: flow.relayState,
    })
    expect(result).toMatchObject({
      ok: true,
      profile: { accountId: 'u-42', email: 'ada@example.com', name: 'Ada King', groups: ['a', 'b'], emailVerified: true, raw: { extraFields: { department: 'R&D' } } },
    })
  })
})
