/**
 * @module
 * `@gatehouse/oidc-provider/client`: the provider's client half for
 * `@gatehouse/react` (docs/oidc-provider.md#the-client-half).
 * `oidcProviderClient()` adds `client.oauth2.consentRequest({ consent_id })`
 * (what the consent page shows), `client.oauth2.consent({ accept, consentId })`,
 * `client.oauth2.clientInfo({ id })`, `client.oauth2.register(metadata)`,
 * and the user's connected apps: `client.oauth2.grants()` and
 * `client.oauth2.revokeGrant({ clientId })`;
 * `useOAuthClient(client, clientId)` gives a page the public name and icon
 * of a client by its id (a consent page shows `consentRequest` instead: an
 * id taken from the page's URL is anyone's to write).
 *
 * Nothing of the server plugin is imported at run time (its types only): this
 * module is data, zod/mini schemas and one hook over `useStore`.
 */
import type { ClientPlugin } from '@gatehouse/react'
import type { OidcErrorCode } from './errors.js'
import type { oidcProviderEndpoints } from './routes/index.js'
import { oidcProviderRoutes, type OidcProviderRoutes } from './client/routes.js'

export { useOAuthClient, type ClientWithOAuthInfo } from './client/use-oauth-client.js'
export type { ConnectedApp, ConsentRequest, PublicClient } from './client/routes.js'

export type OidcProviderClient = ClientPlugin<
  'oidc-provider',
  ReturnType<typeof oidcProviderEndpoints>,
  OidcProviderRoutes,
  {},
  OidcErrorCode
>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { oidcProviderClient } from '@gatehouse/oidc-provider/client'
 *
 * const client = createAuthClient({ plugins: [oidcProviderClient()] })
 * async function consent(consentId: string) {
 *   // What to show comes from the server, by the consent_id of the page's URL.
 *   const { data: request } = await client.oauth2.consentRequest({ consent_id: consentId })
 *   if (!request) return
 *   const allow = window.confirm(`Allow ${request.client.name}${request.client.verified ? '' : ' (unverified)'}: ${request.scopes.join(', ')}?`)
 *   const { data: next } = await client.oauth2.consent({ accept: allow, consentId })
 *   if (next) window.location.assign(next.redirectURI)
 * }
 */
export function oidcProviderClient(): OidcProviderClient {
  return { id: 'oidc-provider', routes: oidcProviderRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `oidcProvider()`.
  interface ClientPluginRegistry {
    'oidc-provider': OidcProviderClient
  }
}
