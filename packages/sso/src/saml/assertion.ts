/**
 * @module
 * Checks on the verified assertion that node-saml 5.1 leaves to the SP
 * (docs/sso.md#saml-checks), read from the assertion node-saml parsed out of
 * the signed bytes (`profile.getAssertion()`), never from the posted document:
 *
 * - the Issuer is the IdP's entity ID, when the provider names one;
 * - a bearer SubjectConfirmation names our ACS as Recipient, has a
 *   NotOnOrAfter still in the future (with the skew), and answers our
 *   request: its InResponseTo is the request ID we stored, or absent for an
 *   allowed IdP-initiated response (SAML Profiles §4.1.4.2-3). This binds the
 *   response to our request with the IdP's signature even when only the
 *   assertion is signed and the Response's own InResponseTo is not;
 * - the assertion has an ID, and an end of validity for the replay store.
 */
import type { Profile } from '@node-saml/node-saml'

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer'

type XmlNode = { readonly $?: Record<string, unknown>; readonly _?: unknown } & Record<string, unknown>

export type AssertionCode = 'invalid_saml_response' | 'invalid_issuer' | 'invalid_recipient' | 'invalid_in_response_to' | 'assertion_expired'

export interface AssertionFacts {
  readonly id: string
  /** When the assertion stops passing every time check: its latest NotOnOrAfter plus the skew. */
  readonly validUntil: Date
}

export interface AssertionExpectations {
  readonly issuer: string | null
  readonly recipient: string
  /** The request ID this must answer; null for an IdP-initiated response. */
  readonly inResponseTo: string | null
  readonly now: Date
  readonly clockSkewMs: number
}

/**
 * @example
 * const checked = checkAssertion(profile, { issuer: idp.entityId, recipient: urls.acs, inResponseTo: requestId, now, clockSkewMs })
 * if (!checked.ok) return refuse(checked.code)
 */
export function checkAssertion(
  profile: Profile,
  expected: AssertionExpectations,
): { readonly ok: true; readonly facts: AssertionFacts } | { readonly ok: false; readonly code: AssertionCode } {
  const assertion = node(profile.getAssertion?.()?.Assertion)
  if (!assertion) return { ok: false, code: 'invalid_saml_response' }
  const id = attribute(assertion, 'ID')
  if (!id) return { ok: false, code: 'invalid_saml_response' }

  if (expected.issuer !== null && text(children(assertion, 'Issuer')[0]) !== expected.issuer) return { ok: false, code: 'invalid_issuer' }

  const now = expected.now.getTime()
  const skew = expected.clockSkewMs
  const bearers = children(children(assertion, 'Subject')[0], 'SubjectConfirmation')
    .filter((confirmation) => attribute(confirmation, 'Method') === BEARER)
    .map((confirmation) => children(confirmation, 'SubjectConfirmationData')[0])
    .filter((data): data is XmlNode => data !== undefined)
  const addressed = bearers.filter((data) => attribute(data, 'Recipient') === expected.recipient)
  if (addressed.length === 0) return { ok: false, code: 'invalid_recipient' }
  const answering = addressed.filter((data) => (attribute(data, 'InResponseTo') ?? null) === expected.inResponseTo)
  if (answering.length === 0) return { ok: false, code: 'invalid_in_response_to' }
  const current = answering.filter((data) => {
    const notOnOrAfter = time(attribute(data, 'NotOnOrAfter'))
    const notBefore = time(attribute(data, 'NotBefore'))
    return notOnOrAfter !== null && now - skew < notOnOrAfter && (notBefore === null || notBefore <= now + skew)
  })
  const confirmation = current[0]
  if (!confirmation) return { ok: false, code: 'assertion_expired' }

  const ends = [time(attribute(confirmation, 'NotOnOrAfter')), time(attribute(children(assertion, 'Conditions')[0], 'NotOnOrAfter'))]
  const latest = Math.max(...ends.filter((end): end is number => end !== null))
  return { ok: true, facts: { id, validUntil: new Date(latest + skew) } }
}

function node(value: unknown): XmlNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as XmlNode) : undefined
}

function children(parent: XmlNode | undefined, name: string): XmlNode[] {
  const value = parent?.[name]
  return Array.isArray(value) ? value.map(node).filter((child): child is XmlNode => child !== undefined) : []
}

function attribute(element: XmlNode | undefined, name: string): string | undefined {
  const value = element?.$?.[name]
  return typeof value === 'string' ? value : undefined
}

function text(element: XmlNode | undefined): string | undefined {
  return typeof element?._ === 'string' ? element._.trim() : undefined
}

function time(value: string | undefined): number | null {
  if (value === undefined) return null
  const parsed = Date.parse(value)
  return Number.isNaN(parsed) ? null : parsed
}
