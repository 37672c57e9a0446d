/**
 * @module
 * `@gatehouse/billing/client`: the plugin's client half for
 * `@gatehouse/react` (docs/client.md, docs/billing.md "Client").
 * `billingClient()` adds `client.customer.*` (the customer state and the
 * three lists; never the webhook route or the server-only calls) and one
 * store, `customerState`, hence the hook `useCustomerState()`: the signed-in
 * user's state, reloaded when another user signs in and emptied, without a
 * request, when nobody is signed in.
 *
 * Nothing of the server plugin is imported at run time (its types only), and
 * `@gatehouse/react` is imported for its types only: this module is data and
 * zod/mini schemas.
 */
import type { ClientPlugin, SessionState } from '@gatehouse/react'
import type { BillingErrorCode } from './errors.js'
import type { billingEndpoints } from './routes/index.js'
import { billingRoutes, type BillingRoutes } from './client/routes.js'

const billingStores = {
  // The caller's own billing: it changes with the user, not with the active organization.
  customerState: {
    route: billingRoutes.customer.state,
    sessionKey: (current: SessionState | null) => current?.user.id ?? null,
  },
} as const

export type BillingClient = ClientPlugin<
  'billing',
  ReturnType<typeof billingEndpoints>,
  BillingRoutes,
  typeof billingStores,
  BillingErrorCode
>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { billingClient } from '@gatehouse/billing/client'
 *
 * const client = createAuthClient({ plugins: [billingClient()] })
 * const { data: orders } = await client.customer.orders({ limit: 20 })
 * function Plan() {
 *   const { data } = client.useCustomerState()
 *   return <span>{data?.activeSubscriptions.length ? 'Pro' : 'Free'}</span>
 * }
 */
export function billingClient(): BillingClient {
  return { id: 'billing', routes: billingRoutes, stores: billingStores }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `billing()`.
  interface ClientPluginRegistry {
    billing: BillingClient
  }
}
