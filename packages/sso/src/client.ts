/**
 * @module
 * `@gatehouse/sso/client`: the plugin's client half for `@gatehouse/react`
 * (docs/sso.md#client). `ssoClient()` adds `client.signIn.sso({ email |
 * domain | organizationSlug | providerId, callbackURL, ... })`, which sends
 * the browser to the identity provider, and the management calls under
 * `client.sso`: `register`, `providers`, `getProvider`, `updateProvider`,
 * `deleteProvider`, `requestDomainVerification`, `verifyDomain`. The names
 * are the leading library's `ssoClient()` ones. The protocol routes (the
 * OIDC callback, the SAML ACS, metadata and logout) are reached by browser
 * navigation or by the IdP, never by fetch, so they have no call here.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin, RouteTable } from '@gatehouse/react'
import * as z from 'zod/mini'
import type { SsoErrorCode } from './errors.js'
import type { SsoEndpoints } from './routes/index.js'

/** A provider as the management routes answer it: never a secret (docs/sso.md#routes). */
const providerShape = z.looseObject({
  providerId: z.string(),
  type: z.enum(['oidc', 'saml']),
  issuer: z.string(),
  domain: z.string(),
  organizationId: z.nullable(z.string()),
  domainVerified: z.boolean(),
  twoFactor: z.enum(['skip', 'require']),
  redirectURI: z.string(),
  spMetadataUrl: z.string(),
})

export const ssoRoutes = {
  signIn: {
    sso: {
      endpoint: 'signInSSO',
      method: 'POST',
      path: '/sign-in/sso',
      output: z.looseObject({ url: z.string(), redirect: z.boolean() }),
      followsRedirect: true,
    },
  },
  sso: {
    register: {
      endpoint: 'registerSSOProvider',
      method: 'POST',
      path: '/sso/register',
      output: z.extend(providerShape, { domainVerificationToken: z.string() }),
    },
    providers: { endpoint: 'listSSOProviders', method: 'GET', path: '/sso/providers', output: z.looseObject({ providers: z.array(providerShape) }) },
    getProvider: { endpoint: 'getSSOProvider', method: 'GET', path: '/sso/get-provider', output: providerShape },
    updateProvider: { endpoint: 'updateSSOProvider', method: 'POST', path: '/sso/update-provider', output: providerShape },
    deleteProvider: { endpoint: 'deleteSSOProvider', method: 'POST', path: '/sso/delete-provider', output: z.looseObject({ success: z.boolean() }) },
    requestDomainVerification: {
      endpoint: 'requestDomainVerification',
      method: 'POST',
      path: '/sso/request-domain-verification',
      output: z.looseObject({ domainVerificationToken: z.string() }),
    },
    // 204 No Content once the TXT record is found.
    verifyDomain: { endpoint: 'verifyDomain', method: 'POST', path: '/sso/verify-domain', output: z.null() },
  },
} as const satisfies RouteTable

export type SsoRoutes = typeof ssoRoutes

export type SsoClient = ClientPlugin<'sso', SsoEndpoints, SsoRoutes, {}, SsoErrorCode>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { ssoClient } from '@gatehouse/sso/client'
 *
 * const client = createAuthClient({ plugins: [ssoClient()] })
 * // "Sign in with SSO": the provider of the address's verified domain.
 * await client.signIn.sso({ email: 'ada@acme.com', callbackURL: '/dashboard' })
 * // Organization settings: add a provider, then prove the domain.
 * const { data } = await client.sso.register({ providerId: 'acme', organizationId, issuer, domain: 'acme.com', oidcConfig: { clientId, clientSecret } })
 * // publish data.domainVerificationToken at _gatehouse-challenge.acme.com, then:
 * await client.sso.verifyDomain({ providerId: 'acme' })
 */
export function ssoClient(): SsoClient {
  return { id: 'sso', routes: ssoRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `sso()`.
  interface ClientPluginRegistry {
    sso: SsoClient
  }
}
