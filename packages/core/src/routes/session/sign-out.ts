/**
 * @module
 * POST /sign-out (docs/sessions.md#signing-up-in-and-out): deletes the session
 * and clears its cookies with Max-Age 0, whether or not the session still existed.
 * With secondary storage unreachable the session cannot be revoked for every
 * process (docs/sessions.md#revocation-and-racing-reads): the answer is 503
 * and the session stays, but the cookies are cleared all the same.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { clearSessionCookies, readSessionToken } from '../../session/session-cookies.js'
import { deleteSessions, hashSessionToken } from '../../session/session-store.js'

export const signOut = defineEndpoint({
  method: 'POST',
  path: '/sign-out',
  handler: async (ctx) => {
    const token = readSessionToken(ctx)
    // Before the revocation, so that a 503 from it still makes this browser forget the session.
    clearSessionCookies(ctx)
    if (token) await deleteSessions(ctx.auth, [hashSessionToken(token)])
    return { success: true }
  },
})
