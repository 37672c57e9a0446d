/**
 * @module
 * POST /admin/set-role {userId, role}: replaces a user's roles (one name or
 * several, stored comma-joined). Needs `user: set-role`; every role must be
 * defined and grant no more than the caller holds, and the target may hold
 * no more than the caller, so nobody raises themselves or anyone else above
 * their own permissions (docs/admin.md#set-role). A user left without
 * `user: impersonate` loses the impersonation sessions they opened, and a
 * user whose roles change loses the impersonation sessions others opened on
 * them, in the same transaction as the role (docs/admin.md#security): the
 * admin who opened one outranked the user as they were, perhaps not as they
 * are now.
 */
import { AuthError, defineEndpoint, refreshUserInStorage, sensitiveSessionMiddleware, type Row } from '@gatehouse/core'
import { joinRoles, parseRoles } from '@gatehouse/organization/access'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { endImpersonationsBy, endImpersonationsOf, IMPERSONATE } from '../services/impersonation.js'
import { requireAdminPermission, requireGrantable, requireOutranks, requireUser, rolesOf, userHasPermission, type AdminUser } from '../services/permission.js'
import { visibleUser } from '../services/users.js'

const body = z.lazy(() =>
  z.object({
    userId: z.string().min(1),
    role: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  }),
)

function sameRoles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((role) => b.includes(role))
}

export function setRole(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/set-role',
    body,
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      const caller = await requireAdminPermission(ctx.db, options, ctx.session, { user: ['set-role'] }, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE)
      const target = await requireUser(ctx.db, ctx.body.userId)
      requireOutranks(options, caller, target)
      const roles = parseRoles(ctx.body.role)
      if (roles.length === 0) throw new AuthError(AdminErrors.ROLE_NOT_FOUND)
      requireGrantable(options, caller, roles)
      const updated = await ctx.db.transaction(async (tx) => {
        const before = await tx.lock<AdminUser & Row>({ model: 'user', where: { field: 'id', value: target.id } })
        if (!before) return null
        const row = await tx.update<AdminUser & Row>({ model: 'user', where: { field: 'id', value: target.id }, update: { role: joinRoles(roles) } })
        // The row is locked, as impersonate-user locks its admin's: a session being opened is either committed, and
        // swept here, or waits and sees the new role. Secondary storage down: 503, and the role stays as it was.
        if (row && !userHasPermission(options, row, IMPERSONATE)) await endImpersonationsBy(ctx.auth, row.id, tx)
        // Whoever impersonates this user was allowed to by the roles the user had (docs/admin.md#security).
        if (row && !sameRoles(rolesOf(options, before), rolesOf(options, row))) await endImpersonationsOf(ctx.auth, row.id, tx)
        return row
      })
      if (!updated) throw new AuthError(AdminErrors.USER_NOT_FOUND)
      // Sessions mirrored in secondary storage carry the user: give them the new role.
      await refreshUserInStorage(ctx.auth, updated)
      return { user: visibleUser(ctx.auth, updated) }
    },
  })
}
