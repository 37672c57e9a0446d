/**
 * @module
 * POST /scim/revoke-token {tokenId} → `{ success: true }` (docs/scim.md#tokens):
 * the token stops working at once (the next request with it is 401). A
 * token the caller may not manage is answered like a missing one (404), so
 * the route tells nobody which organization a token id belongs to.
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { ScimErrors } from '../../errors.js'
import type { ResolvedScimOptions } from '../../options.js'
import { requireTokenManager } from '../../services/token-access.js'
import { findTokenById } from '../../services/tokens.js'

const body = z.lazy(() => z.object({ tokenId: z.string().min(1).max(256) }))

/**
 * @example
 * await auth.api.revokeSCIMToken({ body: { tokenId }, headers }) // { success: true }
 */
export function revokeScimToken(options: ResolvedScimOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/scim/revoke-token',
    body,
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const row = await findTokenById(ctx.db, ctx.body.tokenId)
      if (!row) throw new AuthError(ScimErrors.SCIM_TOKEN_NOT_FOUND)
      try {
        await requireTokenManager(ctx, options, ctx.session, row.organizationId)
      } catch (error) {
        const outsider = error instanceof AuthError && (error.code === 'YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION' || error.code === 'YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM_TOKENS')
        if (outsider) throw new AuthError(ScimErrors.SCIM_TOKEN_NOT_FOUND)
        throw error
      }
      await ctx.db.delete({ model: 'scimToken', where: { field: 'id', value: row.id } })
      return { success: true }
    },
  })
}
