/**
 * @module
 * GET /sso/get-provider?providerId= (docs/sso.md#routes): one provider,
 * sanitized (routes/provider/provider-answer.ts), to a member of its
 * organization holding `sso: read`; 404 "Provider not found", 403 "You don't
 * have access to this provider". The session is read from the store: the
 * answer describes how an organization's people sign in.
 */
import { defineEndpoint, sensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { requireProviderAccess } from '../../services/access.js'
import { providerAnswer } from './provider-answer.js'

const query = z.lazy(() => z.object({ providerId: z.string().min(1).max(256) }))

/**
 * @example
 * const provider = await auth.api.getSSOProvider({ headers, query: { providerId: 'acme' } })
 * provider.oidcConfig?.clientIdLastFour // '****1a2b'
 */
export const getProvider = defineEndpoint({
  method: 'GET',
  path: '/sso/get-provider',
  query,
  use: [sensitiveSessionMiddleware],
  handler: async (ctx) => {
    const row = await requireProviderAccess(ctx, { providerId: ctx.query.providerId, userId: ctx.session.user.id, action: 'read' })
    return providerAnswer(row, ctx.auth.baseURL)
  },
})
