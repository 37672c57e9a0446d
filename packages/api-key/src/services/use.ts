/**
 * @module
 * Using a key (docs/api-key.md#using-a-key): find it by its hash, refuse it
 * with the specific error (invalid, disabled, expired), then spend one request
 * of its rate limit and one of its `remaining` uses.
 *
 * - The rate limit is counted in core's rate-limit store under the key's id,
 *   a fixed window like core's own: with secondary storage or the database
 *   every process counts against one budget.
 * - `remaining` is spent in a transaction holding the key's row lock, with the
 *   refill (when one is due) in the same step: of twenty parallel uses of a key
 *   with five left exactly five succeed, on every backend.
 * - Checks that refuse come before anything is spent: a refused request costs
 *   the key nothing.
 */
import { AuthError, type AuthContext, type Store } from '@gatehouse/core'
import { ApiKeyErrors } from '../errors.js'
import type { ResolvedApiKeyOptions } from '../options.js'
import type { ApiKeyRow } from '../schema.js'
import { findKeyByHash, MODEL } from './keys.js'

/** Longer than any key this plugin makes; a longer header is refused before it is hashed. */
export const MAX_KEY_CHARACTERS = 512

type Ctx = { readonly db: Store; readonly auth: Pick<AuthContext, 'clock' | 'rateLimitStore'> }

/**
 * The usable key row for `key`, or the AuthError saying why not. Spends nothing.
 *
 * @example
 * const row = await checkKey(ctx, key) // then spendKey(ctx, resolved, row)
 */
export async function checkKey(ctx: Ctx, key: string): Promise<ApiKeyRow> {
  if (key.length === 0 || key.length > MAX_KEY_CHARACTERS) throw new AuthError(ApiKeyErrors.INVALID_API_KEY)
  const row = await findKeyByHash(ctx.db, key)
  if (!row) throw new AuthError(ApiKeyErrors.INVALID_API_KEY)
  if (!row.enabled) throw new AuthError(ApiKeyErrors.KEY_DISABLED)
  if (row.expiresAt && row.expiresAt.getTime() <= ctx.auth.clock.now().getTime()) throw new AuthError(ApiKeyErrors.KEY_EXPIRED)
  return row
}

/**
 * Spends one request of the key's rate limit, then one of its uses; answers
 * the row as it is after the use.
 *
 * @throws AuthError RATE_LIMIT_EXCEEDED (429, with `X-Retry-After`), USAGE_EXCEEDED (429),
 * INVALID_API_KEY when the key was deleted meanwhile.
 */
export async function spendKey(ctx: Ctx, options: ResolvedApiKeyOptions, row: ApiKeyRow): Promise<ApiKeyRow> {
  const now = ctx.auth.clock.now()
  if (options.rateLimit.enabled && row.rateLimitEnabled && row.rateLimitTimeWindow && row.rateLimitMax) {
    const window = Math.max(1, Math.ceil(row.rateLimitTimeWindow / 1000))
    const decision = await ctx.auth.rateLimitStore.hit(`api-key|${row.id}`, { window, max: row.rateLimitMax }, now)
    if (!decision.allowed) {
      throw new AuthError(ApiKeyErrors.RATE_LIMIT_EXCEEDED, { headers: { 'x-retry-after': String(decision.retryAfterSeconds) } })
    }
  }
  const limited = row.remaining !== null || (row.refillAmount !== null && row.refillInterval !== null)
  if (!limited) {
    // Unlimited: when it was last used, for the owner's list. Parallel uses may count one request for several.
    const updated = await ctx.db.update<ApiKeyRow & Record<string, unknown>>({
      model: MODEL,
      where: { field: 'id', value: row.id },
      update: { lastRequest: now, requestCount: row.requestCount + 1 },
    })
    if (!updated) throw new AuthError(ApiKeyErrors.INVALID_API_KEY)
    return updated
  }
  return ctx.db.transaction(async (tx) => {
    const locked = await tx.lock<ApiKeyRow & Record<string, unknown>>({ model: MODEL, where: { field: 'id', value: row.id } })
    if (!locked) throw new AuthError(ApiKeyErrors.INVALID_API_KEY)
    let remaining = locked.remaining
    let lastRefillAt = locked.lastRefillAt
    if (locked.refillAmount !== null && locked.refillInterval !== null) {
      const since = (locked.lastRefillAt ?? locked.createdAt).getTime()
      if (now.getTime() - since >= locked.refillInterval) {
        remaining = locked.refillAmount
        lastRefillAt = now
      }
    }
    if (remaining !== null && remaining <= 0) throw new AuthError(ApiKeyErrors.USAGE_EXCEEDED)
    const updated = await tx.update<ApiKeyRow & Record<string, unknown>>({
      model: MODEL,
      where: { field: 'id', value: locked.id },
      update: { remaining: remaining === null ? null : remaining - 1, lastRefillAt, lastRequest: now, requestCount: locked.requestCount + 1 },
    })
    if (!updated) throw new AuthError(ApiKeyErrors.INVALID_API_KEY)
    return updated
  })
}
