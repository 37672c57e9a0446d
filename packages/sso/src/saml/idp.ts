/**
 * @module
 * What the SP needs to know of an IdP (docs/sso.md#registering-a-saml-provider),
 * from a provider's `samlConfig`: its entity ID, the certificate its
 * responses must be signed with, and where its single sign-on and single
 * logout services listen, per binding. The admin's explicit fields win over
 * the IdP metadata document, which wins over the bare `entryPoint`.
 *
 * The signing certificate is only ever the one pasted into `cert` (or
 * `idpMetadata.cert`), never one read from a document: trust is configured,
 * not discovered. Metadata XML is parsed for its entity ID and endpoints
 * only, with @xmldom/xmldom; a document with a DTD is refused (no entity
 * expansion, XXE).
 */
import { DOMParser, type Element as XmlElement } from '@xmldom/xmldom'
import { stopOnError } from './response-envelope.js'
import type { SamlConfig } from '../types.js'
import { certificatePem } from './pem.js'

export const BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
export const BINDING_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST'
const METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata'

export interface IdpEndpoints {
  readonly redirect: string | null
  readonly post: string | null
}

export interface IdpFacts {
  /** The Issuer its assertions must carry, or null when the admin gave none (then only the signature binds them). */
  readonly entityId: string | null
  /** PEM certificates; a response must be signed by one of them. */
  readonly certificates: readonly string[]
  readonly singleSignOn: IdpEndpoints
  readonly singleLogout: IdpEndpoints
}

interface Service {
  readonly Binding: string
  readonly Location: string
}

/**
 * @example
 * const idp = idpFacts(provider.saml)
 * if (idp.singleSignOn.redirect) ... else if (idp.singleSignOn.post) ...
 */
export function idpFacts(config: SamlConfig): IdpFacts {
  const metadata = config.idpMetadata?.metadata ? parseIdpMetadata(config.idpMetadata.metadata) : null
  const cert = config.idpMetadata?.cert ?? config.cert
  const sso = config.idpMetadata?.singleSignOnService ?? metadata?.singleSignOn ?? []
  const slo = config.idpMetadata?.singleLogoutService ?? metadata?.singleLogout ?? []
  const singleSignOn = endpoints(sso)
  return {
    entityId: config.idpMetadata?.entityID ?? metadata?.entityId ?? null,
    certificates: cert ? [certificatePem(cert)] : [],
    // No service listed at all: the entry point, by redirect (the leading library's default too).
    singleSignOn: singleSignOn.redirect || singleSignOn.post ? singleSignOn : { redirect: httpUrl(config.entryPoint), post: null },
    singleLogout: endpoints(slo),
  }
}

function endpoints(services: readonly Service[]): IdpEndpoints {
  const find = (binding: string) => services.map((service) => (service.Binding === binding ? httpUrl(service.Location) : null)).find(Boolean) ?? null
  return { redirect: find(BINDING_REDIRECT), post: find(BINDING_POST) }
}

function httpUrl(value: string | undefined): string | null {
  if (!value) return null
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null
  } catch {
    return null
  }
}

interface ParsedMetadata {
  readonly entityId: string | null
  readonly singleSignOn: readonly Service[]
  readonly singleLogout: readonly Service[]
}

/** The IdP's entity ID and service endpoints from its metadata document; throws on a malformed one. */
export function parseIdpMetadata(xml: string): ParsedMetadata {
  if (/<!DOCTYPE/i.test(xml)) throw new Error('IdP metadata must not contain a DTD')
  const document = new DOMParser({ onError: stopOnError }).parseFromString(xml, 'text/xml')
  const descriptor = first(document.getElementsByTagNameNS(METADATA_NS, 'IDPSSODescriptor'))
  if (!descriptor) throw new Error('IdP metadata has no IDPSSODescriptor')
  const entity = descriptor.parentNode as XmlElement | null
  const services = (name: string): Service[] =>
    Array.from(descriptor.getElementsByTagNameNS(METADATA_NS, name)).map((element) => ({
      Binding: element.getAttribute('Binding') ?? '',
      Location: element.getAttribute('Location') ?? '',
    }))
  return {
    entityId: entity?.getAttribute('entityID') || null,
    singleSignOn: services('SingleSignOnService'),
    singleLogout: services('SingleLogoutService'),
  }
}

function first<T>(list: ArrayLike<T>): T | undefined {
  return list.length > 0 ? list[0] : undefined
}
