/**
 * @module
 * POST /revoke-session {token} (docs/sessions.md#who-may-call-what): the token is a session handle
 * from list-sessions (the stored hash) or a raw session token. A user may
 * revoke only their own sessions: another user's token answers 401, exactly
 * like an unknown one, so the route reveals nothing about other sessions.
 */
import { z } from 'zod'
import type { Row } from '../../db/adapter.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { credentialSessionMiddleware } from '../../session/middleware.js'
import { deleteSessions, hashSessionToken } from '../../session/session-store.js'

export const revokeSession = defineEndpoint({
  method: 'POST',
  path: '/revoke-session',
  body: z.lazy(() => z.object({ token: z.string().min(1) })),
  use: [credentialSessionMiddleware],
  handler: async (ctx) => {
    const target = await ctx.db.findOne<Row & { token: string }>({
      model: 'session',
      where: [
        { field: 'userId', value: ctx.session.user.id },
        {
          or: [
            { field: 'token', value: ctx.body.token },
            { field: 'token', value: hashSessionToken(ctx.body.token) },
          ],
        },
      ],
    })
    if (!target) throw new AuthError(CoreErrors.UNAUTHORIZED)
    await deleteSessions(ctx.auth, [target.token])
    return { status: true }
  },
})
