/**
 * @module
 * `@gatehouse/magic-link/client`: the plugin's client half for
 * `@gatehouse/react` (docs/magic-link.md#client). `magicLinkClient()` adds
 * `client.signIn.magicLink({ email, name?, callbackURL?, ... })`, next to
 * core's `client.signIn.email`. The link itself is opened by the browser
 * from the mail, so it has no client call; the session store picks the new
 * session up when the page it lands on loads.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin, RouteTable } from '@gatehouse/react'
import * as z from 'zod/mini'
import type { MagicLinkEndpoints } from './routes/index.js'

export const magicLinkRoutes = {
  signIn: {
    magicLink: {
      endpoint: 'signInMagicLink',
      method: 'POST',
      path: '/sign-in/magic-link',
      output: z.looseObject({ status: z.boolean() }),
    },
  },
} as const satisfies RouteTable

export type MagicLinkRoutes = typeof magicLinkRoutes

export type MagicLinkClient = ClientPlugin<'magic-link', MagicLinkEndpoints, MagicLinkRoutes, {}, never>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { magicLinkClient } from '@gatehouse/magic-link/client'
 *
 * const client = createAuthClient({ plugins: [magicLinkClient()] })
 * const { error } = await client.signIn.magicLink({ email: 'ada@example.com', callbackURL: '/dashboard' })
 */
export function magicLinkClient(): MagicLinkClient {
  return { id: 'magic-link', routes: magicLinkRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `magicLink()`.
  interface ClientPluginRegistry {
    'magic-link': MagicLinkClient
  }
}
