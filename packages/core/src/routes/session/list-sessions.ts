/**
 * @module
 * GET /list-sessions (docs/sessions.md#who-may-call-what): the caller's unexpired sessions, newest first.
 * Each `token` is the stored hash: enough to name a session for
 * revoke-session, useless as a credential.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { sessionMiddleware } from '../../session/middleware.js'
import { userSessions } from '../../session/session-store.js'

export const listSessions = defineEndpoint({
  method: 'GET',
  path: '/list-sessions',
  use: [sessionMiddleware],
  handler: async (ctx) => {
    const now = ctx.clock.now().getTime()
    const sessions = await userSessions(ctx.auth, ctx.session.user.id)
    return sessions.filter((session) => session.expiresAt.getTime() > now)
  },
})
