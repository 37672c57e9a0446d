/**
 * A test SAML identity provider, built on samlify (another library than the
 * plugin's node-saml, as the issue asks), with keys and self-signed
 * certificates made by the `openssl` CLI for each test run. It answers our
 * AuthnRequests with responses whose every field a test may change, signed
 * by samlify with its own key; the attack tests then take such a response
 * apart with xmldom (saml-attacks.ts).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inflateRawSync } from 'node:zlib'
import * as samlify from 'samlify'

export interface Identity {
  readonly key: string
  readonly cert: string
}

/** An RSA key and a self-signed certificate for it, from the openssl CLI. */
export function identity(commonName: string): Identity {
  const dir = mkdtempSync(join(tmpdir(), 'saml-test-'))
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2',
      '-subj', `/CN=${commonName}`,
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' })
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// The test IdP parses our AuthnRequests; samlify asks for an XSD validator, and this one is the test's own side.
samlify.setSchemaValidator({ validate: async () => 'skipped in tests' })

export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'
export const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'
export const IDP_ENTITY_ID = 'https://idp.test/metadata'
export const IDP_SSO_URL = 'https://idp.test/sso'
export const IDP_SLO_URL = 'https://idp.test/slo'
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST'

/** What a response says; every field has a valid default for the request it answers. */
export interface ResponseFields {
  readonly inResponseTo?: string | null
  readonly nameID?: string
  readonly nameIDFormat?: string
  readonly attributes?: Readonly<Record<string, string | readonly string[]>>
  readonly issuer?: string
  readonly audience?: string
  readonly recipient?: string
  readonly destination?: string | null
  readonly notBefore?: Date
  readonly notOnOrAfter?: Date
  readonly statusCode?: string
  readonly sessionIndex?: string
}

export interface SpView {
  readonly entityId: string
  readonly acs: string
  /** Our SP's encryption certificate: the IdP encrypts assertions to it. */
  readonly encryptCert?: string
}

export interface ResponseOptions {
  /** Which parts samlify signs. Default: the assertion. */
  readonly sign?: 'assertion' | 'response' | 'both'
  readonly encrypt?: boolean
}

let counter = 0
const nextId = () => `_idp${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 10)}`

export class TestIdp {
  readonly entityId: string
  readonly identity: Identity
  readonly idp: ReturnType<typeof samlify.IdentityProvider>

  constructor(options: { identity: Identity; entityId?: string; sso?: 'redirect' | 'post' }) {
    this.identity = options.identity
    this.entityId = options.entityId ?? IDP_ENTITY_ID
    this.idp = samlify.IdentityProvider({
      entityID: this.entityId,
      privateKey: options.identity.key,
      signingCert: options.identity.cert,
      nameIDFormat: [NAMEID_EMAIL],
      singleSignOnService: [{ Binding: options.sso === 'post' ? POST : REDIRECT, Location: IDP_SSO_URL }],
      singleLogoutService: [{ Binding: REDIRECT, Location: IDP_SLO_URL }],
      requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      generateID: nextId,
    })
  }

  /** The AuthnRequest ID in an HTTP-Redirect URL we sent, read by samlify. */
  async requestIdFromRedirect(url: string, sp: SpView): Promise<string> {
    const query = Object.fromEntries(new URL(url).searchParams)
    const parsed = await this.idp.parseLoginRequest(this.sp(sp), 'redirect', { query })
    return String(parsed.extract.request?.id)
  }

  /** The AuthnRequest ID in an HTTP-POST form field we sent (base64 XML, not deflated). */
  async requestIdFromPost(samlRequest: string, sp: SpView): Promise<string> {
    const parsed = await this.idp.parseLoginRequest(this.sp(sp), 'post', { body: { SAMLRequest: samlRequest } })
    return String(parsed.extract.request?.id)
  }

  /** A base64 SAMLResponse answering `fields.inResponseTo` (null: IdP-initiated), signed by samlify. */
  async response(sp: SpView, fields: ResponseFields = {}, options: ResponseOptions = {}): Promise<string> {
    const sign = options.sign ?? 'assertion'
    const target = samlify.ServiceProvider({
      entityID: sp.entityId,
      assertionConsumerService: [{ Binding: POST, Location: sp.acs }],
      wantAssertionsSigned: sign !== 'response',
      wantMessageSigned: sign !== 'assertion',
      ...(options.encrypt && sp.encryptCert ? { encryptCert: sp.encryptCert, isAssertionEncrypted: true } : {}),
    })
    const idp = options.encrypt
      ? samlify.IdentityProvider({ ...this.idp.entitySetting, isAssertionEncrypted: true } as Parameters<typeof samlify.IdentityProvider>[0])
      : this.idp
    const xml = responseXml(sp, { issuer: this.entityId, ...fields })
    const { context } = await idp.createLoginResponse(target, { extract: {} }, 'post', {}, {
      customTagReplacement: () => ({ id: xml.id, context: xml.context }),
    })
    return context
  }

  private sp(sp: SpView) {
    return samlify.ServiceProvider({ entityID: sp.entityId, assertionConsumerService: [{ Binding: POST, Location: sp.acs }] })
  }
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The response document, before samlify signs it. */
export function responseXml(sp: SpView, fields: ResponseFields & { issuer: string }): { id: string; context: string } {
  const id = nextId()
  const assertionId = nextId()
  const now = new Date()
  const notBefore = (fields.notBefore ?? new Date(now.getTime() - 5_000)).toISOString()
  const notOnOrAfter = (fields.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString()
  const inResponseTo = fields.inResponseTo ? ` InResponseTo="${escape(fields.inResponseTo)}"` : ''
  const destination = fields.destination === null ? '' : ` Destination="${escape(fields.destination ?? sp.acs)}"`
  const attributes = Object.entries(fields.attributes ?? {})
    .map(([name, value]) => {
      const values = (typeof value === 'string' ? [value] : value).map((item) => `<saml:AttributeValue xsi:type="xs:string">${escape(item)}</saml:AttributeValue>`).join('')
      return `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified">${values}</saml:Attribute>`
    })
    .join('')
  const context =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}"${destination}${inResponseTo}>` +
    `<saml:Issuer>${escape(fields.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${escape(fields.statusCode ?? 'urn:oasis:names:tc:SAML:2.0:status:Success')}"/></samlp:Status>` +
    `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="${assertionId}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${escape(fields.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${escape(fields.nameIDFormat ?? NAMEID_EMAIL)}">${escape(fields.nameID ?? 'ada@example.com')}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${escape(fields.recipient ?? sp.acs)}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escape(fields.audience ?? sp.entityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${escape(fields.sessionIndex ?? `_session${id}`)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion></samlp:Response>`
  return { id, context }
}

/** The XML of a base64 SAML message, inflated when it came by redirect. */
export function decodeMessage(encoded: string, deflated = false): string {
  const bytes = Buffer.from(encoded, 'base64')
  return (deflated ? inflateRawSync(bytes) : bytes).toString('utf8')
}

export function encodeMessage(xml: string): string {
  return Buffer.from(xml, 'utf8').toString('base64')
}
