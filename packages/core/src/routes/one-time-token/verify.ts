/**
 * @module
 * POST /one-time-token/verify (docs/sessions.md#one-time-tokens): redeems a
 * one-time token once, and signs this browser into the session it was made
 * for: the session cookie is set and `{ session, user }` answered. The
 * session must still be live: one revoked or expired since the token was made
 * is refused. A POST under the origin check, so a cross-site page cannot sign
 * a visitor into the attacker's session with a token of its own (login CSRF).
 */
import { z } from 'zod'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { oneTimeTokenSettings, redeemOneTimeToken } from '../../session/one-time-token.js'
import { setSessionCookies } from '../../session/session-cookies.js'
import { findSession } from '../../session/session-store.js'

export const verifyOneTimeToken = defineEndpoint({
  method: 'POST',
  path: '/one-time-token/verify',
  // Longer than any token we make, short enough that hashing it costs nothing.
  body: z.lazy(() => z.object({ token: z.string().min(1).max(256) })),
  handler: async (ctx) => {
    if (!oneTimeTokenSettings(ctx.options)) throw new AuthError(CoreErrors.ONE_TIME_TOKEN_DISABLED)
    const sessionToken = await redeemOneTimeToken(ctx, ctx.body.token)
    if (!sessionToken) throw new AuthError(CoreErrors.INVALID_ONE_TIME_TOKEN)
    const found = await findSession(ctx.auth, sessionToken)
    if (!found) throw new AuthError(CoreErrors.ONE_TIME_TOKEN_SESSION_NOT_FOUND)
    if (found.session.expiresAt.getTime() <= ctx.clock.now().getTime()) throw new AuthError(CoreErrors.ONE_TIME_TOKEN_SESSION_EXPIRED)
    setSessionCookies(ctx, { ...found, token: sessionToken })
    return found
  },
})
