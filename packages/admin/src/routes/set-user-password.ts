/**
 * @module
 * POST /admin/set-user-password {userId, newPassword}: sets the password of
 * the user's credential account (creating the account when the user signs
 * in only socially), under the same length rules as sign-up. Needs
 * `user: set-password`, and the user may hold no more than the caller:
 * otherwise setting a password would be a way into a stronger account.
 * The user's other sessions are kept (docs/admin.md#set-user-password).
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { requireAdminPermission, requireOutranks, requireUser } from '../services/permission.js'

export function setUserPassword(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/set-user-password',
    body: z.lazy(() => z.object({ userId: z.string().min(1), newPassword: z.string() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const caller = await requireAdminPermission(ctx.db, options, ctx.session, { user: ['set-password'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD)
      const target = await requireUser(ctx.db, ctx.body.userId)
      requireOutranks(options, caller, target)
      ctx.auth.passwords.checkLength(ctx.body.newPassword)
      const hash = await ctx.auth.passwords.hash(ctx.body.newPassword)
      await ctx.db.transaction(async (tx) => {
        // Locked so that a concurrent remove-user cannot leave an account without its user.
        if (!(await tx.lock({ model: 'user', where: { field: 'id', value: target.id } }))) throw new AuthError(AdminErrors.USER_NOT_FOUND)
        const where = [
          { field: 'userId', value: target.id },
          { field: 'providerId', value: 'credential' },
        ]
        const updated = await tx.update({ model: 'account', where, update: { password: hash } })
        if (!updated) await tx.create({ model: 'account', data: { providerId: 'credential', accountId: target.id, userId: target.id, password: hash } })
      })
      return { status: true }
    },
  })
}
