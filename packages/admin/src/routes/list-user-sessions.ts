/**
 * @module
 * POST /admin/list-user-sessions {userId}: the user's unexpired sessions,
 * newest first; each `token` is the stored hash, a handle for
 * revoke-user-session that cannot be used as a session. Needs `session: list`.
 */
import { defineEndpoint, sensitiveSessionMiddleware, userSessions } from '@gatehouse/core'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { requireAdminPermission, requireUser } from '../services/permission.js'

export function listUserSessions(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/list-user-sessions',
    body: z.lazy(() => z.object({ userId: z.string().min(1) })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      await requireAdminPermission(ctx.db, options, ctx.session, { session: ['list'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS)
      const target = await requireUser(ctx.db, ctx.body.userId)
      const now = ctx.clock.now().getTime()
      const sessions = await userSessions(ctx.auth, target.id)
      return { sessions: sessions.filter((session) => session.expiresAt.getTime() > now) }
    },
  })
}
