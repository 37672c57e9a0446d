/**
 * @module
 * POST /admin/revoke-user-session {sessionToken}: deletes one session, named
 * by the handle list-user-sessions answers (or a raw token), in the database
 * and in secondary storage. Needs `session: revoke`, and the session's user
 * may hold no more than the caller.
 */
import { AuthError, defineEndpoint, deleteSessions, hashSessionToken, sensitiveSessionMiddleware, type Session } from '@gatehouse/core'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { findAdminUser, requireAdminPermission, requireOutranks } from '../services/permission.js'

export function revokeUserSession(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/revoke-user-session',
    body: z.lazy(() => z.object({ sessionToken: z.string().min(1) })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const caller = await requireAdminPermission(ctx.db, options, ctx.session, { session: ['revoke'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS)
      const { sessionToken } = ctx.body
      const target = await ctx.db.findOne<Session>({
        model: 'session',
        where: { or: [{ field: 'token', value: sessionToken }, { field: 'token', value: hashSessionToken(sessionToken) }] },
      })
      if (!target) throw new AuthError(AdminErrors.SESSION_NOT_FOUND)
      const owner = await findAdminUser(ctx.db, target.userId)
      if (owner) requireOutranks(options, caller, owner)
      await deleteSessions(ctx.auth, [target.token])
      return { success: true }
    },
  })
}
