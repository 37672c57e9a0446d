/**
 * @module
 * The outside of a posted SAMLResponse, read before node-saml checks it
 * (docs/sso.md#saml-checks): the document must be a single `samlp:Response`
 * without a DTD (no entity expansion, no XXE, no DTD-declared ID
 * attributes), and its root's `InResponseTo`, `Destination` and status
 * code are read for our own checks. None of these is trusted to grant
 * anything: the request ID only finds a stored request, which the signed
 * bearer confirmation must name again; the Destination and status can only
 * make us refuse.
 */
import { DOMParser, type Element, type Node } from '@xmldom/xmldom'

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol'
export const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success'
/** 256 KiB of base64, 192 KiB of XML: a large Entra ID token with groups is well under it (docs/sso.md#saml-limits). */
export const MAX_RESPONSE_CHARS = 256 * 1024
const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}[\r\n]*$/

export interface ResponseEnvelope {
  readonly inResponseTo: string | null
  readonly destination: string | null
  readonly statusCode: string | null
}

/**
 * The envelope of a base64 SAMLResponse, or null when it is not one we read
 * further (not base64, too large, a DTD, not a Response, not well-formed).
 *
 * @example
 * const envelope = readEnvelope(form.SAMLResponse)
 * if (!envelope) return refuse('invalid_saml_response')
 */
export function readEnvelope(encoded: string): ResponseEnvelope | null {
  if (encoded.length === 0 || encoded.length > MAX_RESPONSE_CHARS || !BASE64.test(encoded)) return null
  return readRoot(Buffer.from(encoded, 'base64').toString('utf8'), 'Response')
}

/**
 * The same facts of a LogoutResponse's XML (inflated already, for the
 * HTTP-Redirect binding): node-saml verifies its signature but neither hands
 * back its InResponseTo nor, on the HTTP-POST binding, checks its status.
 *
 * @example
 * const facts = readLogoutResponse(xml)
 * if (facts?.statusCode !== STATUS_SUCCESS) return errorRedirect(ctx, 'invalid_logout_response')
 */
export function readLogoutResponse(xml: string): ResponseEnvelope | null {
  return readRoot(xml, 'LogoutResponse')
}

function readRoot(xml: string, localName: string): ResponseEnvelope | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return null
  let root: Element | null
  try {
    root = new DOMParser({ onError: stopOnError }).parseFromString(xml, 'text/xml').documentElement
  } catch {
    return null
  }
  if (!root || root.namespaceURI !== PROTOCOL_NS || root.localName !== localName) return null
  const status = Array.from(root.childNodes).find((node) => isElement(node, 'Status'))
  const code = status ? Array.from(status.childNodes).find((node) => isElement(node, 'StatusCode')) : undefined
  return {
    inResponseTo: root.getAttribute('InResponseTo') || null,
    destination: root.getAttribute('Destination') || null,
    statusCode: code?.getAttribute('Value') ?? null,
  }
}

function isElement(node: Node, localName: string): node is Element {
  return node.nodeType === 1 && (node as Element).namespaceURI === PROTOCOL_NS && (node as Element).localName === localName
}

/** Errors and fatal errors end the parse: a document xmldom had to repair is not one to read. */
export function stopOnError(level: string, message: string): void {
  if (level !== 'warning') throw new Error(message)
}
