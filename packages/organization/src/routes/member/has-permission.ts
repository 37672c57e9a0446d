/**
 * @module
 * POST /organization/has-permission: answers the client the same question
 * every protected route asks (`authorize`), for the named or active
 * organization: `{ success: boolean }`. A non-member gets false. A request
 * naming no resource, or `__proto__`, is 400: it asks nothing a role could
 * grant, and would otherwise be answered true (docs/organization.md#roles-and-permissions).
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { permissionsInput } from '../../access/permissions-input.js'
import type { ResolvedOptions } from '../../options.js'
import { authorize } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'

const body = z.lazy(() =>
  z.object({
    permissions: permissionsInput(),
    organizationId: z.string().min(1).optional(),
  }),
)

export function hasPermissionRoute(options: ResolvedOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/organization/has-permission',
    body,
    use: [sessionMiddleware],
    handler: async ({ body, db, session }) => {
      const organizationId = targetOrganization(session, body.organizationId)
      const result = await authorize(db, options, { organizationId, userId: session.user.id, permissions: body.permissions })
      return { success: result.ok }
    },
  })
}
