/**
 * @module
 * `@gatehouse/admin/client`: the plugin's client half for `@gatehouse/react`
 * (docs/client.md). `adminClient()` adds `client.admin.*`, one call per
 * admin route. Impersonating and stopping reload the session, so
 * `useSession()` shows who is signed in now.
 *
 * Nothing of the server plugin is imported at run time (its types only):
 * this module is data and zod/mini schemas.
 */
import type { ClientPlugin } from '@gatehouse/react'
import type { AdminErrorCode } from './errors.js'
import type { adminEndpoints } from './routes/index.js'
import { adminRoutes, type AdminRoutes } from './client/routes.js'

export type AdminClient = ClientPlugin<'admin', ReturnType<typeof adminEndpoints>, AdminRoutes, {}, AdminErrorCode>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { adminClient } from '@gatehouse/admin/client'
 *
 * const client = createAuthClient({ plugins: [adminClient()] })
 * const { data } = await client.admin.listUsers({ searchValue: 'ada', limit: 20 })
 * await client.admin.banUser({ userId: data.users[0].id, banReason: 'spam' })
 */
export function adminClient(): AdminClient {
  return { id: 'admin', routes: adminRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `admin()`.
  interface ClientPluginRegistry {
    admin: AdminClient
  }
}
