/**
 * @module
 * `@gatehouse/multi-session/client`: the plugin's client half for
 * `@gatehouse/react` (docs/multi-session.md#client). `multiSessionClient()`
 * adds `client.multiSession.listDeviceSessions()`, `.setActive({ sessionToken })`
 * and `.revoke({ sessionToken })`, the leading library's names and answers;
 * switching and revoking refresh the session store.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin, RouteTable } from '@gatehouse/react'
import { isoDate, userShape } from '@gatehouse/react/client'
import * as z from 'zod/mini'
import type { MultiSessionErrorCode } from './errors.js'
import type { multiSession } from './plugin.js'

type MultiSessionEndpoints = ReturnType<typeof multiSession>['endpoints']

const deviceSession = z.looseObject({
  session: z.looseObject({ id: z.string(), token: z.string(), userId: z.string(), expiresAt: isoDate }),
  user: userShape,
})

export const multiSessionRoutes = {
  multiSession: {
    listDeviceSessions: { endpoint: 'listDeviceSessions', method: 'GET', path: '/multi-session/list-device-sessions', output: z.array(deviceSession) },
    setActive: { endpoint: 'setActiveSession', method: 'POST', path: '/multi-session/set-active', output: deviceSession, signals: ['session'] },
    revoke: { endpoint: 'revokeDeviceSession', method: 'POST', path: '/multi-session/revoke', output: z.looseObject({ status: z.boolean() }), signals: ['session'] },
  },
} as const satisfies RouteTable

export type MultiSessionRoutes = typeof multiSessionRoutes

export type MultiSessionClient = ClientPlugin<'multi-session', MultiSessionEndpoints, MultiSessionRoutes, {}, MultiSessionErrorCode>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { multiSessionClient } from '@gatehouse/multi-session/client'
 *
 * const client = createAuthClient({ plugins: [multiSessionClient()] })
 * const { data: accounts } = await client.multiSession.listDeviceSessions()
 * await client.multiSession.setActive({ sessionToken: accounts![1]!.session.token })
 */
export function multiSessionClient(): MultiSessionClient {
  return { id: 'multi-session', routes: multiSessionRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `multiSession()`.
  interface ClientPluginRegistry {
    'multi-session': MultiSessionClient
  }
}
