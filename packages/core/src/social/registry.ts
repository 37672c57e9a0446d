/**
 * @module
 * Builds the configured providers once, at start-up (docs/social.md#configuration):
 * a named id uses its provider module, any other id needs a generic config
 * (`type: 'oidc'` or `type: 'oauth2'`). Mistakes (an unknown id, a missing
 * client id, an endpoint over plain http to anything but this machine) fail
 * `createAuth`, not the first sign-in.
 */
import type {
  ConfiguredProvider,
  GenericProviderConfig,
  ProviderDefinition,
  ProviderFactory,
  SocialProviderConfig,
  SocialProvidersOptions,
} from '../types/social.js'
import { genericOAuthProvider } from './providers/generic-oauth.js'
import { genericOidcProvider } from './providers/generic-oidc.js'
import { namedProviders } from './providers/index.js'

/** Provider ids become a path segment (`/callback/{id}`) and a stored `providerId`. */
const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/i

/**
 * @example
 * const providers = buildSocialProviders(options.socialProviders, 'https://app.test/api/auth')
 * providers.get('github')?.definition.scopes // ['read:user', 'user:email']
 */
export function buildSocialProviders(
  configs: SocialProvidersOptions | undefined,
  authBaseURL: string,
): ReadonlyMap<string, ConfiguredProvider> {
  const providers = new Map<string, ConfiguredProvider>()
  for (const [id, config] of Object.entries(configs ?? {})) {
    if (config === undefined) continue
    if (!PROVIDER_ID.test(id) || id === 'credential') {
      throw new Error(`Gatehouse: socialProviders.${id}: a provider id is 1-64 letters, digits, "-" or "_", and not "credential".`)
    }
    if (typeof config.clientId !== 'string' || config.clientId === '') {
      throw new Error(`Gatehouse: socialProviders.${id}.clientId is required.`)
    }
    const redirectURI = config.redirectURI ?? `${authBaseURL}/callback/${id}`
    const definition = build(id, config, redirectURI)
    for (const url of [definition.authorizationEndpoint, definition.tokenEndpoint, definition.userInfoEndpoint, definition.issuer, definition.jwksUri]) {
      if (url !== undefined) checkEndpoint(id, url)
    }
    if (!definition.discovery && (!definition.authorizationEndpoint || !definition.tokenEndpoint)) {
      throw new Error(`Gatehouse: socialProviders.${id} has no authorization or token endpoint.`)
    }
    providers.set(id, { id, definition, config, redirectURI })
  }
  return providers
}

function build(id: string, config: SocialProviderConfig | GenericProviderConfig, redirectURI: string): ProviderDefinition {
  if ('type' in config && config.type === 'oidc') return genericOidcProvider(id, config)
  if ('type' in config && config.type === 'oauth2') return genericOAuthProvider(id, config)
  const factory = (namedProviders as Readonly<Record<string, ProviderFactory<SocialProviderConfig> | undefined>>)[id]
  if (!factory) {
    throw new Error(
      `Gatehouse: socialProviders.${id} is not a built-in provider; give it \`type: 'oidc'\` with an \`issuer\`, or \`type: 'oauth2'\` with its endpoints.`,
    )
  }
  return factory.create(config, { redirectURI })
}

/** https everywhere; plain http only to this machine (a local test provider). */
function checkEndpoint(id: string, value: string): void {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`Gatehouse: socialProviders.${id}: not a URL: ${value}`)
  }
  if (url.protocol === 'https:') return
  if (url.protocol === 'http:' && isLoopback(url)) return
  throw new Error(`Gatehouse: socialProviders.${id}: ${value} must use https (plain http is accepted only for localhost).`)
}

/** True for localhost, 127.0.0.0/8 and [::1]. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname
  return host === 'localhost' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host)
}
