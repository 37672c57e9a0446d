/**
 * @module
 * POST /admin/revoke-user-sessions {userId}: deletes every session of the
 * user, impersonation sessions included, and every session the user opened
 * by impersonating others (docs/admin.md#security), in the database and in
 * secondary storage, in one transaction; `revoked` counts them all. Needs
 * `session: revoke`.
 */
import { defineEndpoint, deleteUserSessions, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { endImpersonationsBy } from '../services/impersonation.js'
import { requireAdminPermission, requireOutranks, requireUser } from '../services/permission.js'

export function revokeUserSessions(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/revoke-user-sessions',
    body: z.lazy(() => z.object({ userId: z.string().min(1) })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const caller = await requireAdminPermission(ctx.db, options, ctx.session, { session: ['revoke'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS)
      const target = await requireUser(ctx.db, ctx.body.userId)
      requireOutranks(options, caller, target)
      const revoked = await ctx.db.transaction(
        async (tx) => (await deleteUserSessions(ctx.auth, target.id, undefined, tx)) + (await endImpersonationsBy(ctx.auth, target.id, tx)),
      )
      return { success: true, revoked }
    },
  })
}
