/**
 * @module
 * The Assertion Consumer Service's checks (docs/sso.md#saml-checks), as a
 * value: a posted SAMLResponse either becomes a profile, the landing its
 * request stored and the browser binding to check, or a failure code the
 * route turns into an error redirect. In order:
 *
 * 1. The envelope: base64 of a single `samlp:Response`, no DTD, at most
 *    256 KiB of base64; its status is Success; a Destination, when present, is our ACS.
 * 2. The request: `InResponseTo` names a live request stored for this
 *    provider (another provider's, an expired or a used one: refused) and
 *    the RelayState is that request's handle. No `InResponseTo` at all is an
 *    IdP-initiated response: refused unless `saml.allowIdpInitiated`.
 * 3. node-saml: the signature by the provider's certificate over the
 *    assertion (or the whole response), the wrapping defences, decryption,
 *    Conditions' NotBefore/NotOnOrAfter with the skew, the Audience.
 * 4. assertion.ts: Issuer, bearer Recipient, the signed InResponseTo, expiry.
 * 5. The profile (profile.ts).
 * 6. Single use: the request is consumed, then the assertion's ID claimed
 *    (replay.ts); losing either race refuses.
 *
 * Failures are logged with the provider and the code, never with the
 * assertion or its attributes.
 */
import { constantTimeEqual, type EndpointContext } from '@gatehouse/core'
import { SamlStatusError } from '@node-saml/node-saml'
import type { SsoLanding, SsoProfile, StoredProvider } from '../types.js'
import { checkAssertion, type AssertionCode } from './assertion.js'
import type { SamlPolicy } from './policy.js'
import { mapProfile, type ProfileCode, type SamlSubject } from './profile.js'
import { claimAssertion } from './replay.js'
import { consumeRequest, peekRequest } from './request-store.js'
import { readEnvelope, STATUS_SUCCESS } from './response-envelope.js'
import { SamlConfigError, serviceProvider } from './sp.js'

/** What the ACS redirects a failed sign-in with, as `?error=<code>` (docs/sso.md#saml-errors). */
export type SamlErrorCode =
  | AssertionCode
  | ProfileCode
  | 'saml_not_configured'
  | 'provider_not_found'
  | 'invalid_signature'
  | 'invalid_audience'
  | 'invalid_destination'
  | 'invalid_relay_state'
  | 'assertion_not_yet_valid'
  | 'unsolicited_response'
  | 'replayed_assertion'
  | 'saml_error_status'

/** The form the IdP posts to the ACS. */
export interface SamlForm {
  readonly SAMLResponse?: string | undefined
  readonly RelayState?: string | undefined
}

export type SamlValidation =
  | {
      readonly ok: true
      readonly profile: SsoProfile
      readonly subject: SamlSubject
      readonly landing: SsoLanding
      /** The RelayState handle the browser's `sso_saml` cookie must hold; null for an IdP-initiated sign-in, bound to no browser. */
      readonly binding: string | null
    }
  | {
      readonly ok: false
      readonly code: SamlErrorCode
      /** The stored request's landing, when the response named one: where the error goes. */
      readonly landing: SsoLanding | null
    }

/**
 * @example
 * const result = await validateSamlResponse(ctx, provider, ctx.body, policy)
 * if (!result.ok) return errorRedirect(ctx, provider, result.landing, result.code)
 */
export async function validateSamlResponse(ctx: EndpointContext, provider: StoredProvider, form: SamlForm, policy: SamlPolicy): Promise<SamlValidation> {
  let landing: SsoLanding | null = null
  const refuse = (code: SamlErrorCode, reason?: string): SamlValidation => {
    ctx.logger.warn('saml: response refused', { providerId: provider.providerId, code, ...(reason ? { reason: reason.slice(0, 200) } : {}) })
    return { ok: false, code, landing }
  }
  if (!provider.saml) return refuse('saml_not_configured')

  const encoded = typeof form.SAMLResponse === 'string' ? form.SAMLResponse : ''
  const envelope = readEnvelope(encoded)
  if (!envelope) return refuse('invalid_saml_response', 'not a well-formed SAML Response')

  let sp
  try {
    sp = serviceProvider(ctx, provider, policy)
  } catch (error) {
    if (error instanceof SamlConfigError) return refuse('saml_not_configured', error.message)
    throw error
  }

  const requestId = envelope.inResponseTo
  let binding: string | null = null
  if (requestId !== null) {
    const request = await peekRequest(ctx, requestId, provider.providerId)
    if (!request) return refuse('invalid_in_response_to', 'no live request of this provider')
    landing = request.landing
    const relayState = typeof form.RelayState === 'string' ? form.RelayState : ''
    if (!constantTimeEqual(relayState, request.relayState)) return refuse('invalid_relay_state')
    binding = request.relayState
  } else {
    if (!policy.allowIdpInitiated) return refuse('unsolicited_response')
    // The IdP's RelayState is ignored: in IdP-initiated SSO it is often a URL, and we never redirect to what a response says.
    landing = idpInitiatedLanding(ctx, provider)
  }

  if (envelope.statusCode !== STATUS_SUCCESS) return refuse('saml_error_status', envelope.statusCode ?? 'no status')
  if (envelope.destination !== null && envelope.destination !== sp.urls.acs) return refuse('invalid_destination')

  let verified
  try {
    verified = await sp.saml.validatePostResponseAsync({ SAMLResponse: encoded })
  } catch (error) {
    return refuse(libraryCode(error), error instanceof Error ? error.message : undefined)
  }
  const samlProfile = verified.profile
  if (!samlProfile || verified.loggedOut) return refuse('invalid_saml_response', 'not a login response')

  const checked = checkAssertion(samlProfile, {
    issuer: sp.idp.entityId,
    recipient: sp.urls.acs,
    inResponseTo: requestId,
    now: ctx.clock.now(),
    clockSkewMs: policy.clockSkewMs,
  })
  if (!checked.ok) return refuse(checked.code)

  const mapped = mapProfile(samlProfile, provider.saml.mapping)
  if (!mapped.ok) return refuse(mapped.code)

  if (requestId !== null && !(await consumeRequest(ctx, requestId, provider.providerId))) {
    return refuse('invalid_in_response_to', 'request already answered')
  }
  const claim = await claimAssertion(ctx, provider, checked.facts.id, checked.facts.validUntil)
  if (claim === 'replayed') return refuse('replayed_assertion')
  if (claim === 'provider_gone') return refuse('provider_not_found')

  return { ok: true, profile: mapped.profile, subject: mapped.subject, landing, binding }
}

/**
 * Where an IdP-initiated sign-in lands: the provider's `callbackUrl` when it
 * is a relative path or on a trusted origin, else the site's root.
 */
function idpInitiatedLanding(ctx: EndpointContext, provider: StoredProvider): SsoLanding {
  const configured = provider.saml?.callbackUrl
  return { callbackURL: configured && isSafeTarget(ctx, configured) ? configured : '/', errorURL: null, newUserURL: null, requestSignUp: false }
}

/** A same-site path (not `//host`, no backslash) or an absolute URL on a trusted origin. */
function isSafeTarget(ctx: Pick<EndpointContext, 'auth'>, target: string): boolean {
  if (target.startsWith('/')) return !target.startsWith('//') && !target.includes('\\')
  try {
    const url = new URL(target)
    return (url.protocol === 'https:' || url.protocol === 'http:') && ctx.auth.isTrustedOrigin(url.origin)
  } catch {
    return false
  }
}

/** The code for an error node-saml threw; its messages are stable within the pinned 5.x. */
function libraryCode(error: unknown): SamlErrorCode {
  if (error instanceof SamlStatusError) return 'saml_error_status'
  const message = error instanceof Error ? error.message : ''
  if (/not yet valid/i.test(message)) return 'assertion_not_yet_valid'
  if (/expired|No valid subject confirmation/i.test(message)) return 'assertion_expired'
  if (/audience/i.test(message)) return 'invalid_audience'
  if (/InResponseTo/i.test(message)) return 'invalid_in_response_to'
  if (/signature|signed|referenced|Cannot obtain assertion|multiple assertions|transforms/i.test(message)) return 'invalid_signature'
  return 'invalid_saml_response'
}
