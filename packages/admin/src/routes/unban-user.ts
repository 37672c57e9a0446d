/**
 * @module
 * POST /admin/unban-user {userId}: lifts a ban (docs/admin.md#bans). Needs
 * `user: ban`. The user signs in again to get a session: the ban revoked them all.
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { UNBANNED } from '../services/ban.js'
import { requireAdminPermission, requireOutranks, requireUser, type AdminUser } from '../services/permission.js'
import { visibleUser } from '../services/users.js'

export function unbanUser(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/unban-user',
    body: z.lazy(() => z.object({ userId: z.string().min(1) })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const caller = await requireAdminPermission(ctx.db, options, ctx.session, { user: ['ban'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_BAN_USERS)
      const target = await requireUser(ctx.db, ctx.body.userId)
      requireOutranks(options, caller, target)
      const updated = await ctx.db.update<AdminUser & Row>({ model: 'user', where: { field: 'id', value: target.id }, update: { ...UNBANNED } })
      if (!updated) throw new AuthError(AdminErrors.USER_NOT_FOUND)
      return { user: visibleUser(ctx.auth, updated) }
    },
  })
}
