/**
 * @module
 * The SAML routes' provider look-up and policy: the stored provider of the
 * path's `providerId`, its secrets opened, when it has a SAML configuration;
 * the plugin's `saml` options as a `SamlPolicy`, read at run time; and the
 * provider's service provider for the routes that answer JSON.
 */
import { AuthError, type EndpointContext } from '@gatehouse/core'
import { SsoErrors } from '../../errors.js'
import { ssoOptionsOf } from '../../options.js'
import { samlPolicy, type SamlPolicy } from '../../saml/policy.js'
import { SamlConfigError, serviceProvider, type BuildOptions, type ServiceProvider } from '../../saml/sp.js'
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

/**
 * The provider's service provider for a route that answers JSON: an unusable
 * configuration (a certificate or key that does not parse) is a 400, logged.
 *
 * @example
 * const sp = routeServiceProvider(ctx, provider, { purpose: 'logout' })
 */
export function routeServiceProvider(ctx: EndpointContext, provider: StoredProvider, options: BuildOptions = {}): ServiceProvider {
  try {
    return serviceProvider(ctx, provider, policyOf(ctx), options)
  } catch (error) {
    if (!(error instanceof SamlConfigError)) throw error
    ctx.logger.warn('saml: provider configuration not usable', { providerId: provider.providerId, reason: error.message })
    throw new AuthError(SsoErrors.SAML_NOT_CONFIGURED)
  }
}
