/**
 * @module
 * `@gatehouse/username/client`: the plugin's client half for
 * `@gatehouse/react` (docs/username.md#client). `usernameClient()` adds
 * `client.signIn.username({ username, password, rememberMe?, callbackURL? })`
 * and `client.isUsernameAvailable({ username })`, and types `username` and
 * `displayUsername` into `client.signUp.email` and `client.updateUser`.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin, RouteTable } from '@gatehouse/react'
import { userShape } from '@gatehouse/react/client'
import * as z from 'zod/mini'
import type { UsernameErrors } from './errors.js'
import type { UsernameEndpoints } from './routes/index.js'

export const usernameRoutes = {
  signIn: {
    username: {
      endpoint: 'signInUsername',
      method: 'POST',
      path: '/sign-in/username',
      // Or `{ twoFactorRedirect: true }` and no session yet, when a second factor holds the sign-in.
      output: z.union([
        z.looseObject({ redirect: z.boolean(), token: z.string(), url: z.optional(z.string()), user: userShape }),
        z.looseObject({ twoFactorRedirect: z.literal(true) }),
      ]),
      signals: ['session'],
      challengeable: true,
    },
  },
  isUsernameAvailable: {
    endpoint: 'isUsernameAvailable',
    method: 'POST',
    path: '/is-username-available',
    output: z.looseObject({ available: z.boolean() }),
  },
} as const satisfies RouteTable

export type UsernameRoutes = typeof usernameRoutes

/** What sign-up and update-user take besides core's fields. */
export interface UsernameInput {
  username?: string
  displayUsername?: string
}

export type UsernameClient = ClientPlugin<'username', UsernameEndpoints, UsernameRoutes, {}, keyof typeof UsernameErrors, {}, never, UsernameInput>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { usernameClient } from '@gatehouse/username/client'
 *
 * const client = createAuthClient({ plugins: [usernameClient()] })
 * await client.signUp.email({ email: 'ada@example.com', password, name: 'Ada', username: 'Ada' })
 * const { data } = await client.isUsernameAvailable({ username: 'grace' })
 * await client.signIn.username({ username: 'ada', password })
 */
export function usernameClient(): UsernameClient {
  return { id: 'username', routes: usernameRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `username()`.
  interface ClientPluginRegistry {
    username: UsernameClient
  }
}
