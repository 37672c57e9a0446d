/**
 * @module
 * POST /admin/remove-user {userId} (docs/admin.md#remove-user): deletes the
 * user, their sessions and accounts in one transaction; rows of other
 * plugins that reference the user go by their foreign keys' cascade. The
 * sessions are deleted explicitly so their copies in secondary storage go
 * too, and so do the sessions the user opened by impersonating others (the
 * plugin's onCredentialsRevoked). Needs `user: delete` and `session: delete`;
 * nobody removes themselves here (delete-user is the route for that) or a
 * user stronger than themselves.
 */
import { AuthError, defineEndpoint, revokeUserCredentials, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { requireAdminPermission, requireOutranks, requireUser } from '../services/permission.js'

export function removeUser(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/remove-user',
    body: z.lazy(() => z.object({ userId: z.string().min(1) })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const caller = await requireAdminPermission(
        ctx.db,
        options,
        ctx.session,
        { user: ['delete'], session: ['delete'] },
        AdminErrors.YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS,
      )
      if (ctx.body.userId === caller.id) throw new AuthError(AdminErrors.YOU_CANNOT_REMOVE_YOURSELF)
      const target = await requireUser(ctx.db, ctx.body.userId)
      requireOutranks(options, caller, target)
      // The sessions' copies in secondary storage go after the commit too, so a racing read cannot put one back
      // (docs/sessions.md#revocation-and-racing-reads); with the storage unreachable this answers 503, nothing removed.
      await ctx.db.transaction(async (tx) => {
        await revokeUserCredentials(ctx.auth, { userId: target.id, reason: 'user-deleted', db: tx })
        await tx.deleteMany({ model: 'account', where: { field: 'userId', value: target.id } })
        await tx.delete({ model: 'user', where: { field: 'id', value: target.id } })
      })
      return { success: true }
    },
  })
}
