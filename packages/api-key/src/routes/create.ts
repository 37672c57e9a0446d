/**
 * @module
 * POST /api-key/create (docs/api-key.md#routes): a new key for the
 * caller, or with `organizationId` for an organization whose `apiKey: create`
 * right the caller has. The key is answered once, in this answer; the server
 * keeps its hash. Limits and permissions (`remaining`, refills, the rate
 * limit, `permissions`) are server-only: a request naming one is refused, so a
 * user cannot lift their own key's limits. An organization key's permissions
 * never exceed its creator's.
 */
import { AuthError, defineEndpoint, optionalSensitiveSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { ApiKeyErrors } from '../errors.js'
import type { ResolvedApiKeyOptions } from '../options.js'
import type { ApiKeyRow } from '../schema.js'
import { requireCaller } from '../services/caller.js'
import { answer, generateKey, hashKey, MODEL } from '../services/keys.js'
import { requireOrganizationRight, requireWithinCreator } from '../services/owner.js'
import type { Statements } from '../services/permissions.js'
import { checkName, checkPrefix, checkRefill, expiryOf, metadataText, refuseServerOnly } from '../services/validate.js'
import { metadataSchema, statementsSchema } from './shapes.js'

const body = z.object({
  configId: z.string().max(64).optional(),
  name: z.string().max(256).optional(),
  expiresIn: z.number().min(1).nullable().optional(),
  prefix: z
    .string()
    .max(256)
    .regex(/^[a-zA-Z0-9_-]+$/, { message: 'Invalid prefix format, must be alphanumeric and contain only underscores and hyphens.' })
    .optional(),
  remaining: z.number().int().min(0).nullable().optional(),
  metadata: metadataSchema.optional(),
  refillAmount: z.number().int().min(1).optional(),
  refillInterval: z.number().int().min(1).optional(),
  rateLimitTimeWindow: z.number().int().min(1000).optional(),
  rateLimitMax: z.number().int().min(1).optional(),
  rateLimitEnabled: z.boolean().optional(),
  permissions: statementsSchema.optional(),
  userId: z.coerce.string().max(256).optional(),
  organizationId: z.coerce.string().max(256).optional(),
})

export function createApiKey(options: ResolvedApiKeyOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/api-key/create',
    body: z.lazy(() => body),
    use: [optionalSensitiveSessionMiddleware],
    handler: async (ctx) => {
      const input = ctx.body
      const caller = requireCaller(ctx, ctx.session, input.userId)
      refuseServerOnly(caller.fromClient, input)
      const now = ctx.clock.now()
      checkName(options, input.name, true)
      checkPrefix(options, input.prefix)
      checkRefill(input.refillAmount, input.refillInterval)
      const metadata = metadataText(options, input.metadata) ?? null
      const expiresAt = input.expiresIn === undefined || input.expiresIn === null
        ? options.expiration.defaultExpiresIn === null
          ? null
          : new Date(now.getTime() + options.expiration.defaultExpiresIn * 1000)
        : expiryOf(options, input.expiresIn, now)

      const organizationId = input.organizationId
      const referenceId = organizationId ?? caller.userId
      let permissions: Statements | undefined = input.permissions
      if (permissions === undefined && options.defaultPermissions !== undefined) {
        permissions = typeof options.defaultPermissions === 'function' ? await options.defaultPermissions(referenceId) : options.defaultPermissions
      }
      if (organizationId !== undefined) {
        await requireOrganizationRight(ctx, { organizationId, userId: caller.userId, action: 'create' })
        if (permissions) await requireWithinCreator(ctx, { organizationId, userId: caller.userId, permissions })
      }

      const prefix = input.prefix ?? options.defaultPrefix
      const key = generateKey(ctx.random, options, prefix)
      const row = await ctx.db.create<ApiKeyRow & Record<string, unknown>>({
        model: MODEL,
        data: {
          configId: input.configId ?? 'default',
          name: input.name ?? null,
          start: options.start.store ? key.slice(0, options.start.length) : null,
          prefix: prefix ?? null,
          key: hashKey(key),
          referenceId,
          referenceType: organizationId === undefined ? 'user' : 'organization',
          refillInterval: input.refillInterval ?? null,
          refillAmount: input.refillAmount ?? null,
          lastRefillAt: null,
          enabled: true,
          rateLimitEnabled: input.rateLimitEnabled ?? options.rateLimit.enabled,
          rateLimitTimeWindow: input.rateLimitTimeWindow ?? options.rateLimit.timeWindow,
          rateLimitMax: input.rateLimitMax ?? options.rateLimit.maxRequests,
          requestCount: 0,
          remaining: input.remaining ?? input.refillAmount ?? null,
          lastRequest: null,
          expiresAt,
          createdAt: now,
          updatedAt: now,
          permissions: permissions ? JSON.stringify(permissions) : null,
          metadata,
        },
      })
      return { ...answer(row), key }
    },
  })
}
