/**
 * @module
 * POST /sign-out (docs/sessions.md#signing-up-in-and-out): deletes the session
 * and clears its cookies with Max-Age 0, whether or not the session still existed.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { clearSessionCookies, readSessionToken } from '../../session/session-cookies.js'
import { deleteSessions, hashSessionToken } from '../../session/session-store.js'

export const signOut = defineEndpoint({
  method: 'POST',
  path: '/sign-out',
  handler: async (ctx) => {
    const token = readSessionToken(ctx)
    if (token) await deleteSessions(ctx.auth, [hashSessionToken(token)])
    clearSessionCookies(ctx)
    return { success: true }
  },
})
