/**
 * The attacks of docs/sso.md#saml-attacks, each on a document made from a
 * response our samlify IdP really signed for the attacker (mallory), altered
 * to claim the victim. Each test first shows what a careless SP would have
 * seen (a signature that still verifies, the victim's NameID where it would
 * read it), then that the ACS refuses.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { naiveSignatureValid, naiveSubject, signOtherElement, stripSignatures, wrap, XSW } from './saml-attacks.js'
import { identity, responseXml, TestIdp, type Identity } from './saml-idp.js'
import { relayStateOf, samlProvider, samlTestAuth, spView } from './saml-setup.js'

const VICTIM = 'victim@example.com'
const ATTACKER = 'mallory@example.com'

let idpKeys: Identity
let attackerKeys: Identity
let idp: TestIdp

beforeAll(() => {
  idpKeys = identity('test-idp')
  attackerKeys = identity('attacker')
  idp = new TestIdp({ identity: idpKeys })
})

/**
 * Mallory's own sign-in: a request started in her browser and the IdP's
 * genuine response for her, signed as `sign` says. `wantAssertionsSigned:
 * false` for response-level attacks, so that only the response signature
 * stands between the document and the sign-in.
 */
async function mallorysResponse(sign: 'assertion' | 'response', nameID = ATTACKER) {
  const provider = samlProvider('acme', { cert: idpKeys.cert, wantAssertionsSigned: sign === 'assertion' })
  const auth = await samlTestAuth([provider])
  const sp = spView(provider)
  const { url } = await auth.start('acme')
  const requestId = await idp.requestIdFromRedirect(url, sp)
  const SAMLResponse = await idp.response(sp, { inResponseTo: requestId, nameID, attributes: { email: nameID } }, { sign })
  return { auth, sp, requestId, SAMLResponse, RelayState: relayStateOf(url) }
}

describe('the genuine response', () => {
  it('passes, so each attack below is refused for its alteration alone', async () => {
    for (const sign of ['assertion', 'response'] as const) {
      const { auth, SAMLResponse, RelayState } = await mallorysResponse(sign)
      expect(naiveSignatureValid(SAMLResponse, idpKeys.cert)).toBe(true)
      expect(await auth.post('acme', { SAMLResponse, RelayState })).toMatchObject({ ok: true, profile: { accountId: ATTACKER } })
    }
  })
})

describe('XML signature wrapping', () => {
  // XSW1-2 wrap the signed Response, XSW3-8 the signed Assertion.
  const variants = Object.keys(XSW) as (keyof typeof XSW)[]
  for (const variant of variants) {
    const responseLevel = variant === 'XSW1' || variant === 'XSW2'
    // XSW7 and XSW8 duplicate the signed ID, which xml-crypto itself refuses (a second layer); the others keep a verifying signature.
    const duplicatesId = variant === 'XSW7' || variant === 'XSW8'
    it(`refuses ${variant}`, async () => {
      const genuine = await mallorysResponse(responseLevel ? 'response' : 'assertion')
      const attack = wrap(genuine.SAMLResponse, variant, VICTIM)
      expect(naiveSubject(attack, variant === 'XSW7' ? 'document' : 'child')).toBe(VICTIM)
      if (!duplicatesId) expect(naiveSignatureValid(attack, idpKeys.cert)).toBe(true)
      const result = await genuine.auth.post('acme', { SAMLResponse: attack, RelayState: genuine.RelayState })
      expect(result).toMatchObject({ ok: false, code: 'invalid_signature' })
    })
  }
})

describe('other signature attacks', () => {
  it('reads the whole NameID when a comment splits it (the signature ignores comments)', async () => {
    // Mallory holds the IdP account victim@example.com.evil.test; a comment after "victim@example.com"
    // leaves the signature valid, and an SP reading the first text node would see the victim.
    const genuine = await mallorysResponse('assertion', `${VICTIM}.evil.test`)
    const xml = Buffer.from(genuine.SAMLResponse, 'base64').toString('utf8')
    const commented = xml.replace(`>${VICTIM}.evil.test</saml:NameID>`, `>${VICTIM}<!---->.evil.test</saml:NameID>`)
    expect(commented).not.toBe(xml)
    const attack = Buffer.from(commented).toString('base64')
    expect(naiveSignatureValid(attack, idpKeys.cert)).toBe(true)
    expect(naiveSubject(attack)).toBe(VICTIM)
    const result = await genuine.auth.post('acme', { SAMLResponse: attack, RelayState: genuine.RelayState })
    expect(result).toMatchObject({ ok: true, profile: { accountId: `${VICTIM}.evil.test` }, subject: { nameID: `${VICTIM}.evil.test` } })
  })

  it('refuses an unsigned assertion in a response whose IdP signature covers another element', async () => {
    const provider = samlProvider('acme', { cert: idpKeys.cert, wantAssertionsSigned: false })
    const auth = await samlTestAuth([provider])
    const sp = spView(provider)
    const { url } = await auth.start('acme')
    const requestId = await idp.requestIdFromRedirect(url, sp)
    const attack = signOtherElement(responseXml(sp, { issuer: idp.entityId, inResponseTo: requestId, nameID: ATTACKER }).context, idpKeys, VICTIM)
    expect(naiveSignatureValid(attack, idpKeys.cert)).toBe(true)
    expect(naiveSubject(attack)).toBe(VICTIM)
    expect(await auth.post('acme', { SAMLResponse: attack, RelayState: relayStateOf(url) })).toMatchObject({ ok: false, code: 'invalid_signature' })
  })

  it('refuses a response stripped of its signatures', async () => {
    const genuine = await mallorysResponse('assertion')
    const attack = stripSignatures(genuine.SAMLResponse)
    expect(await genuine.auth.post('acme', { SAMLResponse: attack, RelayState: genuine.RelayState })).toMatchObject({ ok: false, code: 'invalid_signature' })
  })

  it('refuses an assertion signed by the attacker’s key with her certificate in KeyInfo', async () => {
    const genuine = await mallorysResponse('assertion')
    const forger = new TestIdp({ identity: attackerKeys })
    const forged = await forger.response(genuine.sp, { inResponseTo: genuine.requestId, nameID: VICTIM })
    const attackerCert = attackerKeys.cert.replace(/-----[A-Z ]+-----|\s/g, '')
    expect(Buffer.from(forged, 'base64').toString('utf8')).toContain(attackerCert.slice(0, 64))
    expect(await genuine.auth.post('acme', { SAMLResponse: forged, RelayState: genuine.RelayState })).toMatchObject({ ok: false, code: 'invalid_signature' })
  })

  it('refuses a response with a DTD (entities, DTD-declared IDs)', async () => {
    const genuine = await mallorysResponse('assertion')
    const xml = Buffer.from(genuine.SAMLResponse, 'base64').toString('utf8')
    const attack = Buffer.from(`<!DOCTYPE samlp:Response [<!ENTITY who "${VICTIM}">]>${xml}`).toString('base64')
    expect(await genuine.auth.post('acme', { SAMLResponse: attack, RelayState: genuine.RelayState })).toMatchObject({ ok: false, code: 'invalid_saml_response' })
  })
})
