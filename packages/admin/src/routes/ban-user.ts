/**
 * @module
 * POST /admin/ban-user {userId, banReason?, banExpiresIn?}: bans a user,
 * for `banExpiresIn` seconds or until unbanned, and revokes every session
 * they have, impersonation sessions included, and those they opened as
 * others (docs/admin.md#bans). Needs `user: ban`; nobody bans themselves or
 * a user stronger than themselves.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { banUser as ban } from '../services/ban.js'
import { requireAdminPermission, requireOutranks, requireUser } from '../services/permission.js'
import { visibleUser } from '../services/users.js'

const body = z.lazy(() =>
  z.object({
    userId: z.string().min(1),
    banReason: z.string().min(1).max(1000).optional(),
    banExpiresIn: z.number().int().positive().optional(),
  }),
)

export function banUser(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/ban-user',
    body,
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const caller = await requireAdminPermission(ctx.db, options, ctx.session, { user: ['ban'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_BAN_USERS)
      // Checked before the lookup: an admin banning themselves would lock themselves out.
      if (ctx.body.userId === caller.id) throw new AuthError(AdminErrors.YOU_CANNOT_BAN_YOURSELF)
      const target = await requireUser(ctx.db, ctx.body.userId)
      requireOutranks(options, caller, target)
      const { banExpiresIn } = ctx.body
      const banned = await ban(ctx.auth, target.id, {
        banReason: ctx.body.banReason ?? options.defaultBanReason,
        banExpires: banExpiresIn === undefined ? null : new Date(ctx.clock.now().getTime() + banExpiresIn * 1000),
      })
      if (!banned) throw new AuthError(AdminErrors.USER_NOT_FOUND)
      return { user: visibleUser(ctx.auth, banned) }
    },
  })
}
