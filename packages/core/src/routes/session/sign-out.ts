/**
 * @module
 * POST /sign-out (docs/sessions.md#signing-up-in-and-out): deletes the session
 * and clears its cookies with Max-Age 0, whether or not the session still existed.
 * With secondary storage unreachable the session cannot be revoked for every
 * process (docs/sessions.md#revocation-and-racing-reads): the answer is 503
 * with Retry-After, the session stays, and so do the cookies. A user who signs
 * out because they suspect a stolen cookie must be able to retry: clearing
 * the cookie would leave them no way to revoke a session that, with every
 * stolen copy, stays valid (docs/security.md#sign-out-during-a-storage-outage).
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { requestSessionToken } from '../../session/credentials.js'
import { clearSessionCookies } from '../../session/session-cookies.js'
import { deleteSessions, hashSessionToken } from '../../session/session-store.js'

export const signOut = defineEndpoint({
  method: 'POST',
  path: '/sign-out',
  handler: async (ctx) => {
    const token = requestSessionToken(ctx)
    // A failed revocation throws before the cookies are cleared: the 503 keeps them, for the retry.
    if (token) await deleteSessions(ctx.auth, [hashSessionToken(token)])
    clearSessionCookies(ctx)
    return { success: true }
  },
})
