/**
 * @module
 * The per-user budget of POST /usage/ingest (docs/billing.md#usage-events).
 * Core's rate limits count by client address; a user reporting usage is
 * better counted by who they are, since one account may come from many
 * addresses and many accounts from one. So the route spends one unit of
 * the user's budget per request, in the counter store core's rate limiter
 * uses (`rateLimit.storage`: memory, the database's `rateLimit` table or the
 * secondary storage), under its own key (`user:{id}|/usage/ingest`), so
 * the counters are shared by every process exactly as core's are. The
 * budget is billing's, not a flood guard: it holds even with core's
 * `rateLimit.enabled: false`, and `usage.rateLimit: false` turns it off.
 * A store that cannot be reached refuses the request (503): a usage event
 * is money, and the client sends it again later.
 */
import {
  AuthError,
  CoreErrors,
  databaseRateLimitStore,
  memoryRateLimitStore,
  secondaryRateLimitStore,
  type AuthContext,
  type RateLimitDecision,
  type RateLimitStore,
} from '@gatehouse/core'
import type { UsageRateLimit } from './usage-events.js'

/** As core's rate limiter answers while its store is down. */
const STORE_DOWN_RETRY_SECONDS = 3

/**
 * The counter store for `auth`, of the kind its rate limiter uses.
 *
 * @example
 * const store = usageBudgetStore(auth)
 */
export function usageBudgetStore(auth: AuthContext): RateLimitStore {
  const secondary = auth.options.secondaryStorage
  const kind = auth.options.rateLimit?.storage ?? (secondary ? 'secondary-storage' : 'memory')
  if (kind === 'database') return databaseRateLimitStore(auth.adapter)
  if (kind === 'secondary-storage') {
    if (!secondary) throw new Error("billing: rateLimit.storage is 'secondary-storage' but no secondaryStorage is configured")
    return secondaryRateLimitStore(secondary)
  }
  return memoryRateLimitStore()
}

/**
 * Counts one request of `userId`; throws 429 (with `X-Retry-After`, as core's
 * limit does) past the budget, 503 when the store cannot count.
 *
 * @example
 * await spendUsageBudget(auth, store, { window: 60, max: 60 }, session.user.id, clock.now())
 */
export async function spendUsageBudget(auth: Pick<AuthContext, 'logger'>, store: RateLimitStore, rule: UsageRateLimit, userId: string, now: Date): Promise<void> {
  let decision: RateLimitDecision
  try {
    decision = await store.hit(`user:${userId}|/usage/ingest`, rule, now)
  } catch (error) {
    auth.logger.warn('billing usage budget store unavailable: usage requests answer 503', { message: error instanceof Error ? error.message : String(error) })
    throw new AuthError(CoreErrors.SERVICE_UNAVAILABLE, { headers: { 'Retry-After': String(STORE_DOWN_RETRY_SECONDS) } })
  }
  if (!decision.allowed) throw new AuthError(CoreErrors.TOO_MANY_REQUESTS, { headers: { 'x-retry-after': String(decision.retryAfterSeconds) } })
}
