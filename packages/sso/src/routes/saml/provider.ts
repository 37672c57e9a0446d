/**
 * @module
 * The SAML routes' provider look-up and policy: the stored provider of the
 * path's `providerId`, its secrets opened, when it has a SAML configuration;
 * and the plugin's `saml` options as a `SamlPolicy`, read at run time.
 */
import type { EndpointContext } from '@gatehouse/core'
import { ssoOptionsOf } from '../../options.js'
import { samlPolicy, type SamlPolicy } from '../../saml/policy.js'
import { findProvider, readProvider } from '../../services/provider-secrets.js'
import type { StoredProvider } from '../../types.js'

/**
 * @example
 * const provider = await loadSamlProvider(ctx, ctx.params.providerId ?? '')
 * if (!provider) return errorRedirect(ctx, 'provider_not_found')
 */
export async function loadSamlProvider(ctx: EndpointContext, providerId: string): Promise<StoredProvider | null> {
  if (!providerId) return null
  const row = await findProvider(ctx.db, providerId)
  if (!row || !row.samlConfig) return null
  const provider = await readProvider(ctx, row)
  return provider.saml ? provider : null
}

/** The deployment's SAML rules: `saml.allowIdpInitiated` and `saml.clockSkewMs` of `sso(options)`. */
export function policyOf(ctx: Pick<EndpointContext, 'auth'>): SamlPolicy {
  return samlPolicy(ssoOptionsOf(ctx.auth).saml)
}
