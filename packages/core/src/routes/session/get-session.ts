/**
 * @module
 * GET /get-session (docs/sessions.md#reading-a-session-get-get-session):
 * {session, user} or null; 401 when a due refresh fails. `disableCookieCache`
 * forces a store read; `disableRefresh` reads without extending the session.
 * A custom-session plugin adds its fields to the answer (docs/custom-session.md).
 */
import { z } from 'zod'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { sessionAnswer } from '../../session/custom-session.js'

export const getSession = defineEndpoint({
  method: 'GET',
  path: '/get-session',
  query: z.lazy(() =>
    z.object({
      disableCookieCache: z.stringbool().optional(),
      disableRefresh: z.stringbool().optional(),
    }),
  ),
  metadata: { skipRateLimit: true },
  handler: (ctx) =>
    sessionAnswer(ctx, {
      disableCookieCache: ctx.query.disableCookieCache ?? false,
      disableRefresh: ctx.query.disableRefresh ?? false,
    }),
})
