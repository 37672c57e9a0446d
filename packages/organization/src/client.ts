/**
 * @module
 * `@gatehouse/organization/client`: the plugin's client half for
 * `@gatehouse/react` (docs/client.md). `organizationClient()` adds
 * `client.organization.*` (every route but the server-only add-member) and
 * three stores, hence three hooks: `useActiveOrganization()` (the active
 * organization in full), `useListOrganizations()` and `useActiveMember()`.
 * They follow the session: signing out empties them, switching the active
 * organization (here or in another tab) reloads them.
 *
 * Nothing of the server plugin is imported at run time (its types only), and
 * `@gatehouse/react` is imported for its types only: this module is data and
 * zod/mini schemas.
 */
import type { ClientPlugin, SessionState } from '@gatehouse/react'
import type { OrganizationErrorCode } from './errors.js'
import type { organizationEndpoints } from './routes/index.js'
import { organizationRoutes, type OrganizationRoutes } from './client/routes.js'

/** Whose active organization: a new user or another active organization is a new key; none active, nothing to load. */
function activeOrganizationKey(current: SessionState | null): string | null {
  const active = current?.session.activeOrganizationId
  return current && typeof active === 'string' ? `${current.user.id}:${active}` : null
}

const organizationStores = {
  activeOrganization: { route: organizationRoutes.organization.getFullOrganization, sessionKey: activeOrganizationKey },
  listOrganizations: {
    route: organizationRoutes.organization.list,
    sessionKey: (current: SessionState | null) => current?.user.id ?? null,
  },
  activeMember: { route: organizationRoutes.organization.getActiveMember, sessionKey: activeOrganizationKey },
} as const

export type OrganizationClient = ClientPlugin<
  'organization',
  ReturnType<typeof organizationEndpoints>,
  OrganizationRoutes,
  typeof organizationStores,
  OrganizationErrorCode
>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { organizationClient } from '@gatehouse/organization/client'
 *
 * const client = createAuthClient({ plugins: [organizationClient()] })
 * await client.organization.create({ name: 'Acme', slug: 'acme' })
 * function OrganizationName() {
 *   const { data } = client.useActiveOrganization()
 *   return <span>{data?.name ?? 'No organization'}</span>
 * }
 */
export function organizationClient(): OrganizationClient {
  return { id: 'organization', routes: organizationRoutes, stores: organizationStores }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `organization()`.
  interface ClientPluginRegistry {
    organization: OrganizationClient
  }
}
