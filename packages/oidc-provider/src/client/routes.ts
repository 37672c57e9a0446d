/**
 * @module
 * The provider routes a browser calls, as `client.oauth2.<name>`: the pending
 * consent request the page shows, the consent decision, the public face of a client (for the consent page), dynamic
 * registration, and the user's connected apps (grants, revokeGrant). The protocol routes (authorize, token, userinfo, ...) are
 * not here: a relying party speaks OAuth to them with its own library, and
 * the browser reaches authorize by navigation, never by fetch. A test
 * compares the table with the server's endpoints.
 */
import * as z from 'zod/mini'
import type { RouteTable } from '@gatehouse/react'
import { consentRequestShape, consentShape, grantShape, publicClientShape, registeredClientShape, statusShape } from './shapes.js'

export const oidcProviderRoutes = {
  oauth2: {
    // What the consent page shows, by the consent_id of its URL: never the client_id or scope of the URL itself.
    consentRequest: { endpoint: 'oauth2ConsentRequest', method: 'GET', path: '/oauth2/consent', output: consentRequestShape },
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
    // The account page's "Connected apps": the user's grants, and ending one.
    grants: { endpoint: 'oauth2ListGrants', method: 'GET', path: '/oauth2/grants', output: z.array(grantShape) },
    revokeGrant: { endpoint: 'oauth2RevokeGrant', method: 'POST', path: '/oauth2/grants/revoke', output: statusShape },
  },
} as const satisfies RouteTable

export type OidcProviderRoutes = typeof oidcProviderRoutes

/** The pending consent request as `client.oauth2.consentRequest({ consent_id })` answers it. */
export type ConsentRequest = z.infer<typeof consentRequestShape>

/** The public client answer as the hook holds it. */
export type PublicClient = z.infer<typeof publicClientShape>

/** One of the user's connected apps, as `client.oauth2.grants()` answers it. */
export type ConnectedApp = z.infer<typeof grantShape>
