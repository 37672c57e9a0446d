/**
 * @module
 * The provider routes a browser calls, as `client.oauth2.<name>`: the consent
 * decision, the public face of a client (for the consent page) and dynamic
 * registration. The protocol routes (authorize, token, userinfo, ...) are
 * not here: a relying party speaks OAuth to them with its own library, and
 * the browser reaches authorize by navigation, never by fetch. A test
 * compares the table with the server's endpoints.
 */
import * as z from 'zod/mini'
import type { RouteTable } from '@gatehouse/react'
import { consentShape, publicClientShape, registeredClientShape } from './shapes.js'

export const oidcProviderRoutes = {
  oauth2: {
    // Sent as JSON, so the server answers `{ redirectURI }` instead of a 302 the fetch would follow blindly.
    consent: { endpoint: 'oauth2Consent', method: 'POST', path: '/oauth2/consent', output: consentShape },
    clientInfo: {
      endpoint: 'oauth2ClientInfo',
      method: 'GET',
      path: '/oauth2/client/:id',
      params: ['id'],
      output: publicClientShape,
    },
    register: { endpoint: 'oauth2Register', method: 'POST', path: '/oauth2/register', output: registeredClientShape },
  },
} as const satisfies RouteTable

export type OidcProviderRoutes = typeof oidcProviderRoutes

/** The public client answer as the hook holds it. */
export type PublicClient = z.infer<typeof publicClientShape>
