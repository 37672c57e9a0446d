/**
 * @module
 * POST /admin/remove-user {userId} (docs/admin.md#remove-user): deletes the
 * user, their sessions and accounts in one transaction; rows of other
 * plugins that reference the user go by their foreign keys' cascade. The
 * sessions are deleted explicitly so their copies in secondary storage go
 * too. Needs `user: delete` and `session: delete`; nobody removes themselves
 * here (delete-user is the route for that) or a user stronger than themselves.
 */
import { AuthError, defineEndpoint, deleteSessions, sensitiveSessionMiddleware, userSessions } from '@gatehouse/core'
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
      const hashes = await ctx.db.transaction(async (tx) => {
        const sessions = await userSessions({ ...ctx.auth, db: tx }, target.id)
        const tokens = sessions.map((session) => session.token)
        await deleteSessions(ctx.auth, tokens, tx)
        await tx.deleteMany({ model: 'account', where: { field: 'userId', value: target.id } })
        await tx.delete({ model: 'user', where: { field: 'id', value: target.id } })
        return tokens
      })
      // A read that raced the transaction may have mirrored a session back into secondary storage.
      await deleteSessions(ctx.auth, hashes)
      return { success: true }
    },
  })
}
