/**
 * @module
 * `@gatehouse/api-key/client`: the plugin's client half for `@gatehouse/react`
 * (docs/api-key.md#client). `apiKeyClient()` adds `client.apiKey.create`,
 * `.get`, `.update`, `.delete` and `.list`, the leading library's names and
 * answers. `create` is the only answer that carries the key: show it once.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin, RouteTable } from '@gatehouse/react'
import * as z from 'zod/mini'
import type { ApiKeyErrorCode } from './errors.js'
import type { ApiKeyEndpoints } from './plugin.js'

const statements = z.nullable(z.record(z.string(), z.array(z.string())))

/** A key as the routes show it: never the key, never its hash. */
const keyShape = z.looseObject({
  id: z.string(),
  name: z.nullable(z.string()),
  start: z.nullable(z.string()),
  prefix: z.nullable(z.string()),
  referenceId: z.string(),
  enabled: z.boolean(),
  remaining: z.nullable(z.number()),
  requestCount: z.number(),
  lastRequest: z.nullable(z.coerce.date()),
  expiresAt: z.nullable(z.coerce.date()),
  createdAt: z.coerce.date(),
  updatedAt: z.coerce.date(),
  permissions: statements,
  metadata: z.nullable(z.record(z.string(), z.unknown())),
})

export const apiKeyRoutes = {
  apiKey: {
    create: { endpoint: 'createApiKey', method: 'POST', path: '/api-key/create', output: z.extend(keyShape, { key: z.string() }) },
    get: { endpoint: 'getApiKey', method: 'GET', path: '/api-key/get', output: keyShape },
    update: { endpoint: 'updateApiKey', method: 'POST', path: '/api-key/update', output: keyShape },
    delete: { endpoint: 'deleteApiKey', method: 'POST', path: '/api-key/delete', output: z.looseObject({ success: z.boolean() }) },
    list: {
      endpoint: 'listApiKeys',
      method: 'GET',
      path: '/api-key/list',
      output: z.looseObject({ apiKeys: z.array(keyShape), total: z.number() }),
    },
  },
} as const satisfies RouteTable

export type ApiKeyRoutes = typeof apiKeyRoutes

export type ApiKeyClient = ClientPlugin<'api-key', ApiKeyEndpoints, ApiKeyRoutes, {}, ApiKeyErrorCode>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { apiKeyClient } from '@gatehouse/api-key/client'
 *
 * const client = createAuthClient({ plugins: [apiKeyClient()] })
 * const { data } = await client.apiKey.create({ name: 'deploy script', expiresIn: 90 * 86_400 })
 * // show data.key once
 * const { data: list } = await client.apiKey.list()
 * await client.apiKey.delete({ keyId: list.apiKeys[0].id })
 */
export function apiKeyClient(): ApiKeyClient {
  return { id: 'api-key', routes: apiKeyRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `apiKey()`.
  interface ClientPluginRegistry {
    'api-key': ApiKeyClient
  }
}
