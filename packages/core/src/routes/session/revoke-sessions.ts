/**
 * @module
 * POST /revoke-sessions and POST /revoke-other-sessions: sign the
 * caller out everywhere, or everywhere but here. Everywhere includes the
 * user's OAuth grants and pending second factors
 * (docs/plugins.md#when-a-users-credentials-are-revoked); everywhere but here
 * ends only the other sessions.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { credentialSessionMiddleware } from '../../session/middleware.js'
import { clearSessionCookies } from '../../session/session-cookies.js'
import { revokeUserCredentials } from '../../session/revoke-credentials.js'
import { deleteUserSessions } from '../../session/session-store.js'

export const revokeSessions = defineEndpoint({
  method: 'POST',
  path: '/revoke-sessions',
  use: [credentialSessionMiddleware],
  handler: async (ctx) => {
    // Signing out everywhere ends what those sign-ins handed out too: OAuth grants, pending second factors.
    await ctx.db.transaction((tx) => revokeUserCredentials(ctx.auth, { userId: ctx.session.user.id, reason: 'sessions-revoked', db: tx }))
    clearSessionCookies(ctx)
    return { status: true }
  },
})

export const revokeOtherSessions = defineEndpoint({
  method: 'POST',
  path: '/revoke-other-sessions',
  use: [credentialSessionMiddleware],
  handler: async (ctx) => {
    await deleteUserSessions(ctx.auth, ctx.session.user.id, ctx.session.session.token)
    return { status: true }
  },
})
