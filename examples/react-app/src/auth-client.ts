/**
 * The one client of the app. Its types come from the example server's auth
 * (a type-only import: no server code reaches the bundle), so every call's
 * input and output, and every error code, is checked by the compiler.
 */
import { organizationClient } from '@gatehouse/organization/client'
import { createAuthClient } from '@gatehouse/react'
import type { ExampleAuth } from '../../server/src/auth.js'

export const client = createAuthClient<ExampleAuth>({ plugins: [organizationClient()] })

export type SessionData = NonNullable<ReturnType<typeof client.useSession>['data']>
