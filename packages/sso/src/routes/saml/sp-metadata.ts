/**
 * @module
 * GET /sso/saml2/sp/metadata?providerId= (docs/sso.md#saml-sp-metadata): the
 * SP's metadata for one provider, what an admin uploads to the IdP (or lets
 * it fetch). It names our entity ID, the ACS (HTTP-POST), the single logout
 * service, the NameID format we ask for, whether we want assertions signed
 * and sign our AuthnRequests, and our certificates: the signing one (the
 * certificate after `privateKey`) and the encryption one (after
 * `decryptionPvk`, with the algorithms node-saml decrypts). A provider that
 * stored its own SP metadata (`spMetadata.metadata`) gets it back as is,
 * as with the leading library. Public: metadata holds no secret.
 */
import { AuthError, defineEndpoint } from '@gatehouse/core'
import { generateServiceProviderMetadata } from '@node-saml/node-saml'
import { z } from 'zod'
import { SsoErrors } from '../../errors.js'
import { certificateAfterKey, privateKeyPem } from '../../saml/pem.js'
import { NAMEID_EMAIL } from '../../saml/sp.js'
import { spUrls } from '../../saml/urls.js'
import type { StoredProvider } from '../../types.js'
import { loadSamlProvider } from './provider.js'

const query = z.lazy(() => z.object({ providerId: z.string().min(1).max(256) }))

/**
 * @example
 * // curl https://app.example.com/api/auth/sso/saml2/sp/metadata?providerId=acme
 * // <EntityDescriptor entityID="https://app.example.com/api/auth/sso/saml2/sp/metadata?providerId=acme" ...>
 */
export const spMetadata = defineEndpoint({
  method: 'GET',
  path: '/sso/saml2/sp/metadata',
  query,
  handler: async (ctx) => {
    const provider = await loadSamlProvider(ctx, ctx.query.providerId)
    if (!provider?.saml) throw new AuthError(SsoErrors.PROVIDER_NOT_FOUND)
    let xml: string
    try {
      xml = provider.saml.spMetadata?.metadata || metadataXml(ctx, provider, () => `_${ctx.random.string(32)}`)
    } catch (error) {
      ctx.logger.warn('saml: SP metadata not generated', { providerId: provider.providerId, reason: error instanceof Error ? error.message : typeof error })
      throw new AuthError(SsoErrors.SAML_NOT_CONFIGURED)
    }
    return new Response(xml, { headers: { 'content-type': 'application/xml; charset=utf-8' } })
  },
})

/** The generated metadata document; throws when a key or certificate does not parse. */
export function metadataXml(ctx: { readonly auth: { readonly baseURL: string } }, provider: StoredProvider, generateUniqueId: () => string): string {
  const config = provider.saml
  if (!config) throw new Error('provider has no samlConfig')
  const urls = spUrls(ctx, provider)
  const signingKey = privateKeyPem(config.privateKey)
  const signingCert = signingKey ? certificateAfterKey(config.privateKey) : null
  const decryptionKey = privateKeyPem(config.decryptionPvk)
  const decryptionCert = decryptionKey ? certificateAfterKey(config.decryptionPvk) : null
  const xml = generateServiceProviderMetadata({
    issuer: urls.entityId,
    callbackUrl: urls.acs,
    logoutCallbackUrl: urls.slo,
    identifierFormat: config.identifierFormat ?? NAMEID_EMAIL,
    wantAssertionsSigned: config.wantAssertionsSigned !== false,
    // A key without its certificate cannot be published: the IdP could not check what it signs.
    ...(signingKey && signingCert ? { privateKey: signingKey, publicCerts: signingCert } : {}),
    ...(decryptionKey && decryptionCert ? { decryptionPvk: decryptionKey, decryptionCert } : {}),
    generateUniqueId,
  })
  // node-saml declares AuthnRequestsSigned exactly when it has a signing key; the key also signs our
  // logout messages, but AuthnRequests only when the provider asks (sp.ts). The flag says what we do:
  // an IdP that trusts it would refuse unsigned requests, or skip checking signed ones.
  return xml.replace(/AuthnRequestsSigned="(?:true|false)"/, `AuthnRequestsSigned="${config.authnRequestsSigned === true}"`)
}
