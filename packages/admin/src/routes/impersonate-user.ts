/**
 * @module
 * POST /admin/impersonate-user {userId} (docs/admin.md#impersonation): signs
 * the caller in as the user with a new session marked `impersonatedBy` and
 * lasting `impersonationSessionDuration` (one hour by default). The caller's
 * own session is kept, untouched, in a signed cookie for stop-impersonating.
 * Needs `user: impersonate`; an admin is never impersonated unless
 * `allowImpersonatingAdmins`, a banned user never (the session guard refuses
 * them), and an impersonation cannot be nested. The session is written under
 * a lock of the admin's row, after checking the admin again: a ban, removal
 * or demotion of the admin racing this either is seen here or ends the
 * session it waited for (docs/admin.md#security).
 */
import {
  AuthError,
  CoreErrors,
  createSession,
  defineEndpoint,
  deleteSessions,
  readSessionToken,
  credentialSessionMiddleware,
  setSessionCookies,
  type Row,
} from '@gatehouse/core'
import { z } from 'zod'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { isBanned } from '../services/ban.js'
import { IMPERSONATE, impersonatorOf, writeAdminSession } from '../services/impersonation.js'
import {
  findAdminUser,
  isAdmin,
  requireAdminPermission,
  requireOutranks,
  requireUser,
  userHasPermission,
  type AdminUser,
} from '../services/permission.js'
import { visibleUser } from '../services/users.js'

export function impersonateUser(options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/impersonate-user',
    body: z.lazy(() => z.object({ userId: z.string().min(1) })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const { auth, session } = ctx
      // Only the session decides: an `admin_session` cookie left beside an ordinary session is stale
      // (its impersonation ended by a ban or a revocation) and is replaced below.
      if (impersonatorOf(session.session)) throw new AuthError(AdminErrors.ALREADY_IMPERSONATING)
      const caller = await requireAdminPermission(ctx.db, options, session, IMPERSONATE, AdminErrors.YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS)
      const token = readSessionToken(ctx)
      // The admin's session must come back afterwards: without its token there is nothing to restore.
      if (!token) throw new AuthError(CoreErrors.UNAUTHORIZED)
      const target = await requireUser(ctx.db, ctx.body.userId)
      if (isAdmin(options, target) && !options.allowImpersonatingAdmins) throw new AuthError(AdminErrors.YOU_CANNOT_IMPERSONATE_ADMINS)
      requireOutranks(options, caller, target)

      const created = await ctx.db.transaction(async (tx) => {
        const admin = await tx.lock<AdminUser & Row>({ model: 'user', where: { field: 'id', value: caller.id } })
        // Banned or removed since the session was read: their sessions are being revoked, this one with them.
        if (!admin || isBanned(admin, ctx.clock.now())) throw new AuthError(CoreErrors.UNAUTHORIZED)
        if (!userHasPermission(options, admin, IMPERSONATE)) throw new AuthError(AdminErrors.YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS)
        requireOutranks(options, admin, target)
        return createSession(auth, target, {
          db: tx,
          ipAddress: ctx.ip,
          userAgent: ctx.headers.get('user-agent'),
          expiresIn: options.impersonationSessionDuration,
          fields: { impersonatedBy: admin.id },
        })
      })
      // A ban that committed while the session was being written has already swept the user's
      // sessions, perhaps before this one existed: look again and take it back.
      const after = await findAdminUser(ctx.db, target.id)
      if (!after || isBanned(after, ctx.clock.now())) {
        await deleteSessions(auth, [created.session.token])
        if (!after) throw new AuthError(AdminErrors.USER_NOT_FOUND)
        throw new AuthError(AdminErrors.BANNED_USER, { message: options.bannedUserMessage })
      }
      writeAdminSession(ctx.cookies, { token, dontRemember: ctx.cookies.getSigned('dont_remember') === 'true' }, options.impersonationSessionDuration)
      setSessionCookies(ctx, created, { dontRemember: false })
      return { session: created.session, user: visibleUser(auth, created.user) }
    },
  })
}
