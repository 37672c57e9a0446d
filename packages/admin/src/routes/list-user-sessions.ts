/**
 * @module
 * POST /admin/list-user-sessions {userId}: the user's unexpired sessions,
 * newest first; each `token` is the stored hash, a handle for
 * revoke-user-session that cannot be used as a session. Needs `session: list`,
 * and the user may hold no more than the caller, as for revoking: the
 * addresses and handles of a stronger user's sessions are not a support
 * role's to read (docs/admin.md#security).
 */
import { defineEndpoint, sensitiveSessionMiddleware, userSessions } from '@gatehouse/core'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { requireAdminPermission, requireOutranks, requireUser } from '../services/permission.js'

export function listUserSessions(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/list-user-sessions',
    body: z.lazy(() => z.object({ userId: z.string().min(1) })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const caller = await requireAdminPermission(ctx.db, options, ctx.session, { session: ['list'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS)
      const target = await requireUser(ctx.db, ctx.body.userId)
      requireOutranks(options, caller, target)
      const now = ctx.clock.now().getTime()
      const sessions = await userSessions(ctx.auth, target.id)
      return { sessions: sessions.filter((session) => session.expiresAt.getTime() > now) }
    },
  })
}
