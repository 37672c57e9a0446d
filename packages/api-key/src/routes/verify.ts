/**
 * @module
 * `auth.api.verifyApiKey({ body: { key, permissions? } })` (server only; docs/api-key.md#verifying-a-key-on-the-server):
 * for an application's own routes that take a key. Answers
 * `{ valid: true, error: null, key }` (the key's details, never the key) and
 * spends one request of its limits, or `{ valid: false, error: { code, message }, key: null }`:
 * invalid, disabled, expired, used up, rate limited, lacking a permission
 * asked for, its user banned or gone, its organization gone.
 */
import { AuthError, defineEndpoint, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { ApiKeyErrors } from '../errors.js'
import type { ResolvedApiKeyOptions } from '../options.js'
import { answer, type ApiKeyAnswer } from '../services/keys.js'
import { covers, parseStatements } from '../services/permissions.js'
import { checkKey, spendKey } from '../services/use.js'
import { statementsSchema } from './shapes.js'

type Verdict =
  | { readonly valid: true; readonly error: null; readonly key: ApiKeyAnswer }
  | { readonly valid: false; readonly error: { readonly code: string; readonly message: string }; readonly key: null }

export function verifyApiKey(options: ResolvedApiKeyOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/api-key/verify',
    serverOnly: true,
    body: z.lazy(() => z.object({ key: z.string(), configId: z.string().max(64).optional(), permissions: statementsSchema.optional() })),
    handler: async (ctx): Promise<Verdict> => {
      try {
        const row = await checkKey(ctx, ctx.body.key)
        // Asked-for permissions a key lacks: "not found", as the leading library answers.
        if (ctx.body.permissions && !covers(parseStatements(row.permissions), ctx.body.permissions)) throw new AuthError(ApiKeyErrors.KEY_NOT_FOUND)
        if (row.referenceType === 'organization') {
          const organization = await ctx.db.findOne({ model: 'organization', where: { field: 'id', value: row.referenceId } })
          if (!organization) throw new AuthError(ApiKeyErrors.INVALID_REFERENCE_ID_FROM_API_KEY)
        } else {
          const user = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: row.referenceId } })
          if (!user) throw new AuthError(ApiKeyErrors.INVALID_REFERENCE_ID_FROM_API_KEY)
          if (user.banned === true) throw new AuthError(ApiKeyErrors.USER_BANNED)
        }
        const spent = await spendKey(ctx, options, row)
        return { valid: true, error: null, key: answer(spent) }
      } catch (error) {
        if (error instanceof AuthError) return { valid: false, error: { code: error.code, message: error.message }, key: null }
        throw error
      }
    },
  })
}

/** `auth.api.deleteAllExpiredApiKeys()`: what `auth.api.cleanup()` also does for this plugin. */
export function deleteAllExpiredApiKeys() {
  return defineEndpoint({
    method: 'POST',
    path: '/api-key/delete-all-expired-api-keys',
    serverOnly: true,
    handler: async (ctx) => {
      await ctx.db.deleteMany({ model: 'apikey', where: { field: 'expiresAt', operator: 'lt', value: ctx.clock.now() } })
      return { success: true, error: null }
    },
  })
}
