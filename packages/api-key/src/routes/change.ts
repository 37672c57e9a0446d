/**
 * @module
 * POST /api-key/update and POST /api-key/delete (docs/api-key.md#routes):
 * by the key's user, or an organization member with the `apiKey` right. A
 * request may rename, enable or disable a key, change its expiry and (when on)
 * its metadata; its limits and permissions only the server changes. Neither
 * route takes an API key as the caller: a key cannot widen or delete keys.
 * A deleted key is refused by the next request that carries it.
 */
import { AuthError, credentialSessionMiddleware, defineEndpoint, optionalSensitiveSessionMiddleware, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { ApiKeyErrors } from '../errors.js'
import type { ResolvedApiKeyOptions } from '../options.js'
import type { ApiKeyRow } from '../schema.js'
import { requireCaller } from '../services/caller.js'
import { answer, findKeyById, MODEL } from '../services/keys.js'
import { requireKeyAccess, requireWithinCreator } from '../services/owner.js'
import { checkName, checkRefill, expiryOf, metadataText, refuseServerOnly } from '../services/validate.js'
import { metadataSchema, statementsSchema } from './shapes.js'

const updateBody = z.object({
  configId: z.string().max(64).optional(),
  keyId: z.string().min(1).max(256),
  userId: z.coerce.string().max(256).optional(),
  name: z.string().max(256).optional(),
  enabled: z.boolean().optional(),
  remaining: z.number().int().min(1).optional(),
  refillAmount: z.number().int().min(1).optional(),
  refillInterval: z.number().int().min(1).optional(),
  metadata: metadataSchema.optional(),
  expiresIn: z.number().min(1).nullable().optional(),
  rateLimitEnabled: z.boolean().optional(),
  rateLimitTimeWindow: z.number().int().min(1000).optional(),
  rateLimitMax: z.number().int().min(1).optional(),
  permissions: statementsSchema.nullable().optional(),
})

export function updateApiKey(options: ResolvedApiKeyOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/api-key/update',
    body: z.lazy(() => updateBody),
    use: [optionalSensitiveSessionMiddleware],
    handler: async (ctx) => {
      const input = ctx.body
      const caller = requireCaller(ctx, ctx.session, input.userId)
      refuseServerOnly(caller.fromClient, input)
      const row = await requireKeyAccess(ctx, await findKeyById(ctx.db, input.keyId), { userId: caller.userId, action: 'update' })

      const update: Row = {}
      checkName(options, input.name, false)
      if (input.name !== undefined) update.name = input.name
      if (input.enabled !== undefined) update.enabled = input.enabled
      if (input.expiresIn !== undefined) update.expiresAt = expiryOf(options, input.expiresIn, ctx.clock.now())
      // Metadata while it is off is left alone, as the leading library does.
      if (input.metadata !== undefined && options.enableMetadata) update.metadata = metadataText(options, input.metadata) ?? null
      if (input.remaining !== undefined) update.remaining = input.remaining
      if (input.refillAmount !== undefined || input.refillInterval !== undefined) {
        checkRefill(input.refillAmount, input.refillInterval)
        update.refillAmount = input.refillAmount
        update.refillInterval = input.refillInterval
      }
      if (input.rateLimitEnabled !== undefined) update.rateLimitEnabled = input.rateLimitEnabled
      if (input.rateLimitTimeWindow !== undefined) update.rateLimitTimeWindow = input.rateLimitTimeWindow
      if (input.rateLimitMax !== undefined) update.rateLimitMax = input.rateLimitMax
      if (input.permissions !== undefined) {
        if (input.permissions && row.referenceType === 'organization') {
          await requireWithinCreator(ctx, { organizationId: row.referenceId, userId: caller.userId, permissions: input.permissions })
        }
        update.permissions = input.permissions ? JSON.stringify(input.permissions) : null
      }
      if (Object.keys(update).length === 0) throw new AuthError(ApiKeyErrors.NO_VALUES_TO_UPDATE)
      const updated = await ctx.db.update<ApiKeyRow & Record<string, unknown>>({ model: MODEL, where: { field: 'id', value: row.id }, update })
      if (!updated) throw new AuthError(ApiKeyErrors.KEY_NOT_FOUND)
      return answer(updated)
    },
  })
}

export function deleteApiKey() {
  return defineEndpoint({
    method: 'POST',
    path: '/api-key/delete',
    body: z.lazy(() => z.object({ keyId: z.string().min(1).max(256), configId: z.string().max(64).optional() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const row = await requireKeyAccess(ctx, await findKeyById(ctx.db, ctx.body.keyId), { userId: ctx.session.user.id, action: 'delete' })
      await ctx.db.delete({ model: MODEL, where: { field: 'id', value: row.id } })
      return { success: true }
    },
  })
}
