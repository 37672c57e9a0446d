/**
 * @module
 * POST /organization/has-permission: answers the client the same question
 * every protected route asks (`authorize`), for the named or active
 * organization: `{ success: boolean }`. A non-member gets false.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedOptions } from '../../options.js'
import { authorize } from '../../services/authorize.js'
import { targetOrganization } from '../../services/caller.js'

const body = z.lazy(() =>
  z.object({
    permissions: z.record(z.string(), z.array(z.string())),
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
