/**
 * @module
 * `@gatehouse/jwt/client`: the plugin's client half for `@gatehouse/react`
 * (docs/jwt.md#client): `client.jwt.token()` answers `{ token }` for the
 * signed-in session, to send to another service as `Authorization: Bearer`;
 * `client.jwt.jwks()` the published key set.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin, RouteTable } from '@gatehouse/react'
import * as z from 'zod/mini'
import type { JwtErrorCode } from './errors.js'
import type { JwtEndpoints } from './plugin.js'

export const jwtRoutes = {
  jwt: {
    token: { endpoint: 'getToken', method: 'GET', path: '/token', output: z.looseObject({ token: z.string() }) },
    jwks: { endpoint: 'getJwks', method: 'GET', path: '/jwks', output: z.looseObject({ keys: z.array(z.looseObject({ kid: z.string(), kty: z.string() })) }) },
  },
} as const satisfies RouteTable

export type JwtRoutes = typeof jwtRoutes

export type JwtClient = ClientPlugin<'jwt', JwtEndpoints, JwtRoutes, {}, JwtErrorCode>

/**
 * @example
 * const client = createAuthClient({ plugins: [jwtClient()] })
 * const { data } = await client.jwt.token()
 * await fetch('https://reports.example.com/api', { headers: { authorization: `Bearer ${data.token}` } })
 */
export function jwtClient(): JwtClient {
  return { id: 'jwt', routes: jwtRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `jwt()`.
  interface ClientPluginRegistry {
    jwt: JwtClient
  }
}
