/**
 * The browser's client: typed from the server's `auth` (a type-only import,
 * so no server code reaches the bundle), with the client half of the
 * organization plugin. It calls /api/auth on the page's own origin.
 */
import { organizationClient } from '@gatehouse/organization/client'
import { createAuthClient } from '@gatehouse/react'
import type { auth } from './auth'

export const client = createAuthClient<typeof auth>({ plugins: [organizationClient()] })
