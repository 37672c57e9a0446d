/**
 * @module
 * POST /admin/has-permission {permissions, userId?, role?}: answers the
 * question every admin route asks, `{ success }`. Without `userId` or `role`
 * it is about the caller; asking about another user or a role needs
 * `user: list`. A server-side call (`auth.api`) may ask about a user or a
 * role without a session. A resource no role grants (`constructor` and
 * `toString` too: grants are read by own keys) answers false; a user in
 * `adminUserIds` holds every permission and gets true (docs/admin.md#security).
 * A request naming no resource, or `__proto__`, is 400: it asks nothing a
 * role could grant, and would otherwise be answered true (permissionsInput).
 */
import { AuthError, CoreErrors, defineEndpoint, optionalSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { permissionsInput } from '@gatehouse/organization/access'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { findAdminUser, requireAdminPermission, requireUser, userHasPermission } from '../services/permission.js'

const body = z.lazy(() =>
  z
    .object({
      permissions: permissionsInput(),
      userId: z.string().min(1).optional(),
      role: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    })
    .refine((value) => value.userId === undefined || value.role === undefined, { message: 'userId and role are exclusive' }),
)

export function hasPermission(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/has-permission',
    body,
    use: [optionalSessionMiddleware],
    handler: async (ctx) => {
      const { body, session } = ctx
      const aboutOther = body.userId !== undefined || body.role !== undefined
      if (!session && !(ctx.isServerCall && aboutOther)) throw new AuthError(CoreErrors.UNAUTHORIZED)
      if (session && aboutOther && body.userId !== session.user.id) {
        await requireAdminPermission(ctx.db, options, session, { user: ['list'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_LIST_USERS)
      }
      if (body.role !== undefined) return { success: userHasPermission(options, { role: body.role }, body.permissions) }
      const subject = body.userId !== undefined ? await requireUser(ctx.db, body.userId) : await findAdminUser(ctx.db, session?.user.id ?? '')
      if (!subject) throw new AuthError(AdminErrors.USER_NOT_FOUND)
      return { success: userHasPermission(options, subject, body.permissions) }
    },
  })
}
