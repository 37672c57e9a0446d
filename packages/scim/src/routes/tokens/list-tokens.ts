/**
 * @module
 * GET /scim/list-tokens?organizationId= (docs/scim.md#tokens): the
 * organization's tokens, oldest first, as `{ tokens: [...] }`: id,
 * `providerId`, the first characters (`start`), who made it, when it was
 * made, last used and expires. Never the token nor its hash. Same
 * permission as generating one.
 */
import { defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { ResolvedScimOptions } from '../../options.js'
import { requireTokenManager } from '../../services/token-access.js'
import { listTokens, tokenInfo } from '../../services/tokens.js'

const query = z.lazy(() => z.object({ organizationId: z.string().min(1).max(256) }))

/**
 * @example
 * const { tokens } = await auth.api.listSCIMTokens({ query: { organizationId: org.id }, headers })
 */
export function listScimTokens(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/scim/list-tokens',
    query,
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      await requireTokenManager(ctx, options, ctx.session, ctx.query.organizationId)
      const rows = await listTokens(ctx.db, ctx.query.organizationId)
      return { tokens: rows.map(tokenInfo) }
    },
  })
}
