/**
 * @module
 * POST /admin/stop-impersonating (docs/admin.md#impersonation): deletes the
 * impersonation session and restores the admin's own session from the
 * signed cookie impersonate-user left. It also works after the impersonation
 * session has ended (a ban of the user revokes it): the cookie alone names
 * the admin's session. An ordinary session is refused, and a session
 * impersonated by someone else than the cookie's admin too.
 */
import {
  AuthError,
  CoreErrors,
  clearSessionCookies,
  defineEndpoint,
  deleteSessions,
  findSession,
  optionalSessionMiddleware,
  setSessionCookies,
} from '@gatehouse/core'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { ADMIN_SESSION_COOKIE, impersonatorOf, readAdminSession } from '../services/impersonation.js'
import { visibleUser } from '../services/users.js'

export function stopImpersonating(_options: ResolvedAdminOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/admin/stop-impersonating',
    use: [optionalSessionMiddleware],
    handler: async (ctx) => {
      const { auth, session } = ctx
      const stored = readAdminSession(ctx.cookies)
      const impersonator = session ? impersonatorOf(session.session) : null
      if (!stored || (session && !impersonator)) throw new AuthError(AdminErrors.NOT_IMPERSONATING)
      const admin = await findSession(auth, stored.token)
      if (session && admin && impersonator !== admin.user.id) throw new AuthError(AdminErrors.NOT_IMPERSONATING)

      if (session) await deleteSessions(auth, [session.session.token])
      ctx.cookies.delete(ADMIN_SESSION_COOKIE)
      if (!admin || admin.session.expiresAt.getTime() <= ctx.clock.now().getTime()) {
        // The admin's own session ended meanwhile: they are signed out, not left as the user.
        clearSessionCookies(ctx)
        throw new AuthError(CoreErrors.UNAUTHORIZED)
      }
      setSessionCookies(ctx, { ...admin, token: stored.token }, { dontRemember: stored.dontRemember })
      return { session: admin.session, user: visibleUser(auth, admin.user) }
    },
  })
}
