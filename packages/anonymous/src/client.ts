/**
 * @module
 * `@gatehouse/anonymous/client`: the plugin's client half for
 * `@gatehouse/react` (docs/anonymous.md#client). `anonymousClient()` adds
 * `client.signIn.anonymous()` and `client.deleteAnonymousUser()`, the
 * leading library's names and answers; both refresh the session store.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin, RouteTable } from '@gatehouse/react'
import { userShape } from '@gatehouse/react/client'
import * as z from 'zod/mini'
import type { AnonymousErrorCode } from './errors.js'
import type { anonymous } from './plugin.js'

type AnonymousEndpoints = ReturnType<typeof anonymous>['endpoints']

export const anonymousRoutes = {
  signIn: {
    anonymous: {
      endpoint: 'signInAnonymous',
      method: 'POST',
      path: '/sign-in/anonymous',
      output: z.looseObject({ token: z.string(), user: userShape }),
      signals: ['session'],
    },
  },
  deleteAnonymousUser: {
    endpoint: 'deleteAnonymousUser',
    method: 'POST',
    path: '/delete-anonymous-user',
    output: z.looseObject({ success: z.boolean() }),
    signals: ['session'],
  },
} as const satisfies RouteTable

export type AnonymousRoutes = typeof anonymousRoutes

export type AnonymousClient = ClientPlugin<'anonymous', AnonymousEndpoints, AnonymousRoutes, {}, AnonymousErrorCode>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { anonymousClient } from '@gatehouse/anonymous/client'
 *
 * const client = createAuthClient({ plugins: [anonymousClient()] })
 * await client.signIn.anonymous() // a guest session; signing up later keeps the guest's data
 */
export function anonymousClient(): AnonymousClient {
  return { id: 'anonymous', routes: anonymousRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `anonymous()`.
  interface ClientPluginRegistry {
    anonymous: AnonymousClient
  }
}
