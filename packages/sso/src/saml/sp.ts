/**
 * @module
 * The service provider for one provider (docs/sso.md#saml): a node-saml
 * `SAML` instance built per request from the stored `samlConfig`, so a
 * changed configuration takes effect at once and nothing about one
 * provider leaks into another's.
 *
 * The settings that carry security, and why:
 * - `idpCert`: only the certificate the admin pasted; a response signed by
 *   any other key (another provider's IdP, a KeyInfo inside the document) fails.
 * - `wantAuthnResponseSigned: false`, `wantAssertionsSigned` true unless the
 *   provider says false: the assertion must be signed by that certificate,
 *   or (only when the provider turned `wantAssertionsSigned` off) the whole
 *   response around it. node-saml never accepts an assertion no signature
 *   covers, and reads the profile from the signed bytes only (CVE-2025-54369,
 *   CVE-2025-54419, fixed in 5.1.0).
 * - `audience`: the provider's `audience`, else our entity ID.
 * - `acceptedClockSkewMs`: the plugin's `saml.clockSkewMs` (default 60 s).
 * - `validateInResponseTo: always` (`ifPresent` only with
 *   `saml.allowIdpInitiated`), over our own request rows (request-store.ts).
 * - `disableRequestedAuthnContext`: we ask for no particular authentication
 *   method; an IdP that used MFA or Kerberos instead of a password would
 *   otherwise refuse the sign-in (Entra ID's AADSTS75011).
 * - Requests are signed with SHA-256 (SHA-512 when configured), never SHA-1.
 */
import { SAML, ValidateInResponseTo, type SamlConfig as NodeSamlConfig, type SignatureAlgorithm } from '@node-saml/node-saml'
import type { EndpointContext } from '@gatehouse/core'
import type { StoredProvider } from '../types.js'
import { idpFacts, type IdpFacts } from './idp.js'
import { privateKeyPem } from './pem.js'
import type { SamlPolicy } from './policy.js'
import { newMessageId, REQUEST_TTL_MS, requestCache } from './request-store.js'
import { spUrls, type SpUrls } from './urls.js'

export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'

type Ctx = Pick<EndpointContext, 'db' | 'clock' | 'random' | 'auth'>

export interface ServiceProvider {
  readonly saml: SAML
  readonly urls: SpUrls
  readonly idp: IdpFacts
  /** The Audience an assertion must name. */
  readonly audience: string
}

export interface BuildOptions {
  /** The ID of the message about to be generated (we store it before sending). */
  readonly messageId?: string
  /**
   * `sign-in`: AuthnRequests are signed only when the provider sets
   * `authnRequestsSigned`. `logout`: LogoutRequests and LogoutResponses are
   * signed whenever the provider has a private key (IdPs require it).
   */
  readonly purpose?: 'sign-in' | 'logout'
  /**
   * `post`: the message goes in a form (HTTP-POST binding), base64 of the
   * XML itself; the HTTP-Redirect binding deflates it first (SAML Bindings §3.4.4.1, §3.5.4).
   */
  readonly binding?: 'redirect' | 'post'
}

/** The provider has no usable SAML configuration (no certificate, unparsable key or metadata). */
export class SamlConfigError extends Error {
  override readonly name = 'SamlConfigError'
}

/**
 * @example
 * const sp = serviceProvider(ctx, provider, policy, { messageId })
 * const url = await sp.saml.getAuthorizeUrlAsync(relayState, undefined, {})
 */
export function serviceProvider(ctx: Ctx, provider: StoredProvider, policy: SamlPolicy, options: BuildOptions = {}): ServiceProvider {
  const config = provider.saml
  if (!config) throw new SamlConfigError('provider has no samlConfig')
  let idp: IdpFacts
  let signingKey: string | null
  let decryptionKey: string | null
  try {
    idp = idpFacts(config)
    signingKey = privateKeyPem(config.privateKey)
    decryptionKey = privateKeyPem(config.decryptionPvk)
  } catch (error) {
    throw new SamlConfigError(error instanceof Error ? error.message : 'unreadable samlConfig')
  }
  if (idp.certificates.length === 0) throw new SamlConfigError('no IdP signing certificate')
  const purpose = options.purpose ?? 'sign-in'
  if (purpose === 'sign-in' && config.authnRequestsSigned && !signingKey) throw new SamlConfigError('authnRequestsSigned needs privateKey')

  const urls = spUrls(ctx, provider)
  const audience = config.audience || urls.entityId
  const algorithm = shortAlgorithm(config.signatureAlgorithm)
  const sign = purpose === 'logout' ? signingKey : config.authnRequestsSigned ? signingKey : null
  const settings: NodeSamlConfig = {
    idpCert: [...idp.certificates],
    issuer: urls.entityId,
    callbackUrl: urls.acs,
    logoutCallbackUrl: urls.slo,
    entryPoint: idp.singleSignOn.redirect ?? idp.singleSignOn.post ?? config.entryPoint,
    // Set, never left to the library's fallback to the entry point: a LogoutResponse goes only where the IdP listens for it.
    logoutUrl: idp.singleLogout.redirect ?? idp.singleLogout.post ?? '',
    audience,
    ...(idp.entityId ? { idpIssuer: idp.entityId } : {}),
    wantAssertionsSigned: config.wantAssertionsSigned !== false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: policy.clockSkewMs,
    validateInResponseTo: policy.allowIdpInitiated ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestCache(ctx, provider.providerId, purpose === 'logout' ? 'logout' : 'authn'),
    identifierFormat: config.identifierFormat ?? NAMEID_EMAIL,
    disableRequestedAuthnContext: true,
    skipRequestCompression: options.binding === 'post',
    signatureAlgorithm: algorithm,
    digestAlgorithm: shortAlgorithm(config.digestAlgorithm),
    generateUniqueId: () => options.messageId ?? newMessageId(ctx),
    ...(sign ? { privateKey: sign } : {}),
    ...(decryptionKey ? { decryptionPvk: decryptionKey } : {}),
  }
  return { saml: new SAML(settings), urls, idp, audience }
}

/** `sha512` when the configured algorithm names it, else `sha256`: SHA-1 is never used for what we sign. */
function shortAlgorithm(value: string | undefined): SignatureAlgorithm {
  return value && /sha-?512/i.test(value) ? 'sha512' : 'sha256'
}
