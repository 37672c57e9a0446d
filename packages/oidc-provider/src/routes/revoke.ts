/**
 * @module
 * POST /oauth2/revoke (RFC 7009): the client revokes one of its tokens. A
 * refresh token takes its whole family with it (RFC 7009 §2.1); an access
 * token stops working at once. Tokens that are unknown or belong to another
 * client are ignored, and the answer is 200 either way (§2.2), so the
 * endpoint tells nothing about tokens the caller does not hold.
 */
import { defineEndpoint } from '@gatehouse/core'
import type { ResolvedOidcOptions } from '../options.js'
import { authenticateClient } from '../services/clients.js'
import { digest } from '../services/secrets.js'
import { revokeGrant, type TokenRow } from '../services/tokens.js'
import { noStore, oauthParams, param, requiredParam } from './params.js'

export function oauth2Revoke(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/revoke',
    body: oauthParams,
    // Called cross-origin by browser-based public clients; reads no cookie (docs/oidc-provider.md#cross-origin-calls).
    metadata: { skipOriginCheck: true, cors: true },
    handler: async (ctx) => {
      noStore(ctx.responseHeaders)
      const body = ctx.body ?? {}
      const client = await authenticateClient(ctx.db, options, ctx.headers, body)
      const hash = await digest(requiredParam(body, 'token'))
      // The hint only orders the lookups (RFC 7009 §2.1); both kinds are tried.
      const order = param(body, 'token_type_hint') === 'access_token' ? (['accessToken', 'refreshToken'] as const) : (['refreshToken', 'accessToken'] as const)
      for (const field of order) {
        const row = await ctx.db.findOne<TokenRow>({ model: 'oauthAccessToken', where: { field, value: hash } })
        if (!row) continue
        if (row.clientId !== client.clientId) break
        if (field === 'refreshToken') await revokeGrant(ctx.db, row.grantId)
        else await ctx.db.update({ model: 'oauthAccessToken', where: { field: 'id', value: row.id }, update: { accessTokenExpiresAt: ctx.clock.now() } })
        break
      }
      return new Response(null, { status: 200 })
    },
  })
}
