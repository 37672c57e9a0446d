/**
 * @module
 * `@gatehouse/oidc-provider/client`: the provider's client half for
 * `@gatehouse/react` (docs/oidc-provider.md#the-client-half).
 * `oidcProviderClient()` adds `client.oauth2.consent({ accept })`,
 * `client.oauth2.clientInfo({ id })`, `client.oauth2.register(metadata)`,
 * and the user's connected apps: `client.oauth2.grants()` and
 * `client.oauth2.revokeGrant({ clientId })`;
 * `useOAuthClient(client, clientId)` gives a consent page the client's name
 * and icon.
 *
 * Nothing of the server plugin is imported at run time (its types only): this
 * module is data, zod/mini schemas and one hook over `useStore`.
 */
import type { ClientPlugin } from '@gatehouse/react'
import type { OidcErrorCode } from './errors.js'
import type { oidcProviderEndpoints } from './routes/index.js'
import { oidcProviderRoutes, type OidcProviderRoutes } from './client/routes.js'

export { useOAuthClient, type ClientWithOAuthInfo } from './client/use-oauth-client.js'
export type { ConnectedApp, PublicClient } from './client/routes.js'

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
 * import { oidcProviderClient, useOAuthClient } from '@gatehouse/oidc-provider/client'
 *
 * const client = createAuthClient({ plugins: [oidcProviderClient()] })
 * function Consent({ clientId }: { clientId: string }) {
 *   const { data } = useOAuthClient(client, clientId)
 *   const decide = async (accept: boolean) => {
 *     const { data: next } = await client.oauth2.consent({ accept })
 *     if (next) window.location.assign(next.redirectURI)
 *   }
 *   return <button onClick={() => decide(true)}>Allow {data?.name}</button>
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
