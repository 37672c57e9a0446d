/**
 * @module
 * GET /oauth2/grants and POST /oauth2/grants/revoke {clientId}
 * (docs/oidc-provider.md#connected-apps): the signed-in user's connected
 * apps, and ending one. The session is read from the store, never the
 * cookie cache: a session revoked elsewhere must not list or change grants.
 * These are the account pages' calls, so errors come in core's
 * `{ code, message }` shape.
 */
import { defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedOidcOptions } from '../options.js'
import { listGrants, revokeClientGrant } from '../services/grants.js'

/**
 * @example
 * await auth.api.oauth2ListGrants({ headers })
 * // [{ clientId: 'notes', name: 'Notes', icon: null, scopes: ['openid', 'email'], grantedAt, lastUsedAt }]
 */
export function oauth2ListGrants(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/oauth2/grants',
    use: [sensitiveSessionMiddleware],
    handler: (ctx) => listGrants(ctx.db, options, ctx.session.user.id, ctx.clock.now()),
  })
}

/**
 * @example
 * await auth.api.oauth2RevokeGrant({ body: { clientId: 'notes' }, headers }) // { status: true }
 */
export function oauth2RevokeGrant() {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/grants/revoke',
    body: z.lazy(() => z.object({ clientId: z.string().min(1).max(256) })),
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      // Answered alike whether or not the client held anything: the caller learns nothing about other clients.
      await revokeClientGrant(ctx.db, ctx.session.user.id, ctx.body.clientId, ctx.clock.now())
      return { status: true }
    },
  })
}
