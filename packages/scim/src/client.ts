/**
 * @module
 * `@gatehouse/scim/client`: the plugin's client half for `@gatehouse/react`
 * (docs/scim.md#client). `scimClient()` adds the token calls an
 * organization's settings page makes: `client.scim.generateToken({
 * organizationId, providerId? })` (the leading library's name and answer,
 * `{ scimToken }`), `client.scim.listTokens({ organizationId })` and
 * `client.scim.revokeToken({ tokenId })`. The `/scim/v2` routes are called
 * by the directory with the token, never by the browser, so they have no
 * call here.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin, RouteTable } from '@gatehouse/react'
import * as z from 'zod/mini'
import type { ScimErrorCode } from './errors.js'
import type { ScimEndpoints } from './routes/index.js'

/** A token as the routes show it: never the token itself, but on generation. */
const tokenShape = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  providerId: z.string(),
  start: z.string(),
  createdBy: z.nullable(z.string()),
  createdAt: z.coerce.date(),
  expiresAt: z.nullable(z.coerce.date()),
  lastUsedAt: z.nullable(z.coerce.date()),
})

export const scimRoutes = {
  scim: {
    generateToken: {
      endpoint: 'generateSCIMToken',
      method: 'POST',
      path: '/scim/generate-token',
      output: z.extend(tokenShape, { scimToken: z.string() }),
    },
    listTokens: { endpoint: 'listSCIMTokens', method: 'GET', path: '/scim/list-tokens', output: z.looseObject({ tokens: z.array(tokenShape) }) },
    revokeToken: {
      endpoint: 'revokeSCIMToken',
      method: 'POST',
      path: '/scim/revoke-token',
      output: z.looseObject({ success: z.boolean() }),
    },
  },
} as const satisfies RouteTable

export type ScimRoutes = typeof scimRoutes

export type ScimClient = ClientPlugin<'scim', ScimEndpoints, ScimRoutes, {}, ScimErrorCode>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { scimClient } from '@gatehouse/scim/client'
 *
 * const client = createAuthClient({ plugins: [scimClient()] })
 * const { data } = await client.scim.generateToken({ organizationId, providerId: 'okta' })
 * // show data.scimToken once, with the base URL https://app.example.com/api/auth/scim/v2
 * const { data: list } = await client.scim.listTokens({ organizationId })
 * await client.scim.revokeToken({ tokenId: list.tokens[0].id })
 */
export function scimClient(): ScimClient {
  return { id: 'scim', routes: scimRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `scim()`.
  interface ClientPluginRegistry {
    scim: ScimClient
  }
}
