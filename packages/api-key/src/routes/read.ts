/**
 * @module
 * GET /api-key/get and GET /api-key/list (docs/api-key.md#routes): a
 * key's details, or the caller's keys (an organization's with
 * `organizationId`, for members with its `apiKey: read` right). Neither ever
 * answers a key or its hash. A request authenticated by an API key may read
 * its owner's keys: reading changes nothing.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import type { ApiKeyRow } from '../schema.js'
import { answer, findKeyById, MODEL } from '../services/keys.js'
import { requireKeyAccess, requireOrganizationRight } from '../services/owner.js'

export function getApiKey() {
  return defineEndpoint({
    method: 'GET',
    path: '/api-key/get',
    query: z.lazy(() => z.object({ id: z.string().min(1).max(256), configId: z.string().max(64).optional() })),
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const row = await requireKeyAccess(ctx, await findKeyById(ctx.db, ctx.query.id), { userId: ctx.session.user.id, action: 'read' })
      return answer(row)
    },
  })
}

/** The columns a list may be sorted by: never the hash. */
const SORTABLE = ['createdAt', 'updatedAt', 'name', 'expiresAt', 'lastRequest', 'prefix', 'enabled', 'requestCount', 'remaining'] as const

const listQuery = z
  .object({
    configId: z.string().max(64).optional(),
    organizationId: z.string().max(256).optional(),
    limit: z.coerce.number().int().nonnegative().max(1000).optional(),
    offset: z.coerce.number().int().nonnegative().optional(),
    sortBy: z.enum(SORTABLE).optional(),
    sortDirection: z.enum(['asc', 'desc']).optional(),
  })
  .optional()

export function listApiKeys() {
  return defineEndpoint({
    method: 'GET',
    path: '/api-key/list',
    query: z.lazy(() => listQuery),
    use: [sessionMiddleware],
    handler: async (ctx) => {
      const query = ctx.query ?? {}
      const userId = ctx.session.user.id
      if (query.organizationId !== undefined) await requireOrganizationRight(ctx, { organizationId: query.organizationId, userId, action: 'read' })
      const where = [
        { field: 'referenceId', value: query.organizationId ?? userId },
        { field: 'referenceType', value: query.organizationId === undefined ? 'user' : 'organization' },
      ]
      const [rows, total] = await Promise.all([
        ctx.db.findMany<ApiKeyRow & Record<string, unknown>>({
          model: MODEL,
          where,
          sortBy: { field: query.sortBy ?? 'createdAt', direction: query.sortDirection ?? (query.sortBy ? 'asc' : 'desc') },
          ...(query.limit === undefined ? {} : { limit: query.limit }),
          ...(query.offset === undefined ? {} : { offset: query.offset }),
        }),
        ctx.db.count({ model: MODEL, where }),
      ])
      return { apiKeys: rows.map(answer), total, limit: query.limit, offset: query.offset }
    },
  })
}
