/**
 * @module
 * POST /sso/delete-provider {providerId} → `{ success: true }`
 * (docs/sso.md#deleting-a-provider). Needs `sso: delete` in the provider's
 * organization, with the session read from the store.
 *
 * In one transaction, under a lock of the provider row: the accounts linked
 * to it, the sessions signed in through it (`session.ssoProviderId`), its
 * domain verification tokens, then the provider. Why the sessions too: an
 * organization deletes a provider when it stops trusting it (a compromised
 * IdP, a tenant handed back); a session it issued would otherwise outlive that
 * decision for the whole session lifetime. Only those sessions end: the
 * users' sessions of other sign-ins (password, another provider) stay, and
 * the users stay (their memberships are the organization's to manage).
 * Sessions go through core's `deleteSessions`, so their copies in secondary
 * storage go too; if that storage is down the whole deletion answers 503 and
 * nothing is deleted.
 */
import { AuthError, defineEndpoint, deleteSessions, sensitiveSessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { deleteChallenges } from '../../domains/challenge-token.js'
import { SsoErrors } from '../../errors.js'
import { requireProviderAccess } from '../../services/access.js'

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
      await tx.deleteMany({ model: 'account', where: { field: 'providerId', value: providerId } })
      const sessions = await tx.findMany<Row & { token: string }>({ model: 'session', where: { field: 'ssoProviderId', value: providerId } })
      await deleteSessions(ctx.auth, sessions.map((session) => session.token), tx)
      await deleteChallenges(tx, providerId)
      await tx.delete({ model: 'ssoProvider', where: { field: 'id', value: row.id } })
    })
    return { success: true }
  },
})
