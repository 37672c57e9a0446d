/**
 * @module
 * GET /sso/providers[?organizationId=] → `{ providers: [...] }`
 * (docs/sso.md#routes): the providers of every organization where the caller
 * holds `sso: read`, sanitized, oldest first; `organizationId` narrows the list
 * to one organization. Each organization is asked through the organization
 * plugin's own permission check, so run-time roles count.
 */
import { defineEndpoint, sensitiveSessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import type { ProviderRow } from '../../schema.js'
import { organizationAuthority } from '../../services/access.js'
import { providerAnswer } from './provider-answer.js'

const query = z.lazy(() => z.object({ organizationId: z.string().min(1).max(256).optional() }).optional())

/**
 * @example
 * const { providers } = await auth.api.listSSOProviders({ headers })
 */
export const listProviders = defineEndpoint({
  method: 'GET',
  path: '/sso/providers',
  query,
  use: [sensitiveSessionMiddleware],
  handler: async (ctx) => {
    const userId = ctx.session.user.id
    const memberships = await ctx.db.findMany<Row & { organizationId: string }>({ model: 'member', where: { field: 'userId', value: userId } })
    const wanted = ctx.query?.organizationId
    const candidates = [...new Set(memberships.map((member) => member.organizationId))].filter((id) => wanted === undefined || id === wanted)
    const authority = organizationAuthority(ctx.auth)
    const readable: string[] = []
    for (const organizationId of candidates) {
      const verdict = await authority.authorize(ctx.db, { organizationId, userId, permissions: { sso: ['read'] } })
      if (verdict.ok) readable.push(organizationId)
    }
    if (readable.length === 0) return { providers: [] }
    const rows = await ctx.db.findMany<ProviderRow & Row>({
      model: 'ssoProvider',
      where: { field: 'organizationId', operator: 'in', value: readable },
      sortBy: [
        { field: 'createdAt', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ],
    })
    return { providers: rows.map((row) => providerAnswer(row, ctx.auth.baseURL)) }
  },
})
