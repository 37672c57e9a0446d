/**
 * @module
 * POST /revoke-sessions and POST /revoke-other-sessions: sign the
 * caller out everywhere, or everywhere but here.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { sensitiveSessionMiddleware } from '../../session/middleware.js'
import { clearSessionCookies } from '../../session/session-cookies.js'
import { deleteUserSessions } from '../../session/session-store.js'

export const revokeSessions = defineEndpoint({
  method: 'POST',
  path: '/revoke-sessions',
  use: [sensitiveSessionMiddleware],
  handler: async (ctx) => {
    await deleteUserSessions(ctx.auth, ctx.session.user.id)
    clearSessionCookies(ctx)
    return { status: true }
  },
})

export const revokeOtherSessions = defineEndpoint({
  method: 'POST',
  path: '/revoke-other-sessions',
  use: [sensitiveSessionMiddleware],
  handler: async (ctx) => {
    await deleteUserSessions(ctx.auth, ctx.session.user.id, ctx.session.session.token)
    return { status: true }
  },
})
