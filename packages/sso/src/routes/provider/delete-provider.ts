/**
 * @module
 * POST /sso/delete-provider {providerId} → `{ success: true }`
 * (docs/sso.md#deleting-a-provider). Needs `sso: delete` in the provider's
 * organization, with the session read from the store.
 *
 * In one transaction, under a lock of the provider row: the accounts linked
 * to it, the sessions signed in through it, its domain verification tokens,
 * then the provider (services/provider-removal.ts says why the sessions go).
 */
import { AuthError, defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { SsoErrors } from '../../errors.js'
import { requireProviderAccess } from '../../services/access.js'
import { removeProvider } from '../../services/provider-removal.js'

const body = z.lazy(() => z.object({ providerId: z.string().min(1).max(256) }))

/**
 * @example
 * await auth.api.deleteSSOProvider({ headers, body: { providerId: 'acme' } }) // { success: true }
 */
export const deleteProvider = defineEndpoint({
  method: 'POST',
  path: '/sso/delete-provider',
  body,
  use: [sensitiveSessionMiddleware],
  handler: async (ctx) => {
    const { providerId } = ctx.body
    const row = await requireProviderAccess(ctx, { providerId, userId: ctx.session.user.id, action: 'delete' })
    await ctx.db.transaction(async (tx) => {
      const locked = await tx.lock({ model: 'ssoProvider', where: { field: 'id', value: row.id } })
      if (!locked) throw new AuthError(SsoErrors.PROVIDER_NOT_FOUND)
      await removeProvider(ctx.auth, tx, row)
    })
    return { success: true }
  },
})
