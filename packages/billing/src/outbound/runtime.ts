/**
 * @module
 * The plugin's outbound state for one auth: the platform client (made on
 * first use, with the auth's logger; the SDK itself loads on the first
 * call), the usage batcher, and the user hooks that record customer syncs
 * (customer-sync.ts), and the counter store of the per-user usage budget
 * (usage-budget.ts). Pushes started by a hook run in the background:
 * the sign-up or profile change has committed and answers at once; the
 * pending row makes sure the push happens even if this process dies.
 */
import { AuthError, type AuthContext, type DatabaseHookContext, type DatabaseHooks, type RateLimitStore, type Row } from '@gatehouse/core'
import { BillingErrors } from '../errors.js'
import type { ResolvedBillingOptions } from '../options.js'
import { customerForReference } from '../read/customers.js'
import { markCustomerDirty, syncDueCustomers, type CustomerSyncRecord, type SyncContext } from './customer-sync.js'
import { createPlatform, type Platform } from './platform.js'
import { createUsageBatcher, type UsageBatcher } from './usage-batcher.js'
import { spendUsageBudget, usageBudgetStore } from './usage-budget.js'

/** Due rows of other users pushed along with each sign-up or outbound call. */
const DRAIN_LIMIT = 5

export interface OutboundRuntime {
  /** The platform client for this auth; `BILLING_PLATFORM_NOT_CONFIGURED` without an access token. */
  platform(auth: AuthContext): Platform
  usage(auth: AuthContext): UsageBatcher
  /** Counts one POST /usage/ingest of `userId` against the per-user budget (usage-budget.ts); throws 429 past it. */
  spendUsageBudget(auth: AuthContext, userId: string): Promise<void>
  syncContext(auth: AuthContext): SyncContext
  /** Pushes `referenceId`'s pending sync now (ignoring backoff), then a few other due ones in the background. */
  syncBefore(auth: AuthContext, referenceId: string): Promise<void>
  /** Starts work that must not hold up the answer; failures are logged. */
  background(auth: AuthContext, task: () => Promise<unknown>): void
  /** Resolves once the background work started so far has finished (tests, graceful shutdown). */
  idle(): Promise<void>
  readonly databaseHooks: DatabaseHooks
  init(auth: AuthContext): void
}

function endpointAuth(ctx: DatabaseHookContext): AuthContext | undefined {
  const endpoint = ctx.endpoint
  if (typeof endpoint === 'object' && endpoint !== null && 'auth' in endpoint) return (endpoint as { auth: AuthContext }).auth
  return undefined
}

/**
 * @example
 * const outbound = createOutboundRuntime(resolved)
 * definePlugin({ id: 'billing', databaseHooks: outbound.databaseHooks, init: outbound.init, ... })
 */
export function createOutboundRuntime(options: ResolvedBillingOptions): OutboundRuntime {
  const settings = options.outbound
  const platforms = new WeakMap<AuthContext, Platform>()
  const batchers = new WeakMap<AuthContext, UsageBatcher>()
  const budgets = new WeakMap<AuthContext, RateLimitStore>()
  const running = new Set<Promise<unknown>>()
  let initialized: AuthContext | undefined

  const platform = (auth: AuthContext): Platform => {
    if (!settings.platform) throw new AuthError(BillingErrors.BILLING_PLATFORM_NOT_CONFIGURED)
    let made = platforms.get(auth)
    if (!made) {
      made = createPlatform(settings.platform, auth.logger)
      platforms.set(auth, made)
    }
    return made
  }
  const budgetStore = (auth: AuthContext): RateLimitStore => {
    let store = budgets.get(auth)
    if (!store) {
      store = usageBudgetStore(auth)
      budgets.set(auth, store)
    }
    return store
  }
  const syncContext = (auth: AuthContext): SyncContext => ({ db: auth.db, platform: platform(auth), logger: auth.logger, now: auth.clock.now() })
  const background = (auth: AuthContext, task: () => Promise<unknown>) => {
    const work: Promise<unknown> = task()
      .catch((error: unknown) => auth.logger.error('billing background task failed', { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => running.delete(work))
    running.add(work)
  }
  const drain = (auth: AuthContext) => background(auth, () => syncDueCustomers(syncContext(auth), { limit: DRAIN_LIMIT }))
  const pushSoon = (auth: AuthContext, referenceId: string) =>
    background(auth, async () => {
      await syncDueCustomers(syncContext(auth), { limit: 1, referenceId })
      await syncDueCustomers(syncContext(auth), { limit: DRAIN_LIMIT })
    })

  const authFor = (ctx: DatabaseHookContext) => endpointAuth(ctx) ?? initialized
  const wantsSync = async (auth: AuthContext, user: Row): Promise<boolean> => {
    const id = String(user.id)
    const sync = await auth.db.findOne<CustomerSyncRecord>({ model: 'billingCustomerSync', where: { field: 'referenceId', value: id } })
    const known = sync?.status === 'synced' ? sync : sync ? null : await customerForReference(auth.db, id)
    if (sync && sync.status === 'pending') return false // already owed: the push reads the user row as it is then
    if (!known) return settings.createCustomerOnSignUp
    return known.email !== user.email || (known.name ?? null) !== ((user.name as string | null | undefined) || null)
  }

  const databaseHooks: DatabaseHooks = settings.platform
    ? {
        user: {
          create: {
            after: async (row, ctx) => {
              const auth = authFor(ctx)
              if (!auth || !settings.createCustomerOnSignUp) return
              await markCustomerDirty(auth.db, String(row.id), 'upsert', auth.clock.now())
              pushSoon(auth, String(row.id))
            },
          },
          update: {
            after: async (row, ctx) => {
              const auth = authFor(ctx)
              if (!auth || !(await wantsSync(auth, row))) return
              await markCustomerDirty(auth.db, String(row.id), 'upsert', auth.clock.now())
              pushSoon(auth, String(row.id))
            },
          },
          delete: {
            after: async (row, ctx) => {
              const auth = authFor(ctx)
              if (!auth || settings.onUserDeleted !== 'delete') return
              await markCustomerDirty(auth.db, String(row.id), 'delete', auth.clock.now())
              pushSoon(auth, String(row.id))
            },
          },
        },
      }
    : {}

  return {
    platform,
    usage(auth) {
      let batcher = batchers.get(auth)
      if (!batcher) {
        batcher = createUsageBatcher({ platform: platform(auth), logger: auth.logger, windowMs: settings.batchWindowMs, maxBatchSize: settings.maxBatchSize })
        batchers.set(auth, batcher)
      }
      return batcher
    },
    async spendUsageBudget(auth, userId) {
      if (settings.usageRateLimit) await spendUsageBudget(auth, budgetStore(auth), settings.usageRateLimit, userId, auth.clock.now())
    },
    syncContext,
    async syncBefore(auth, referenceId) {
      await syncDueCustomers(syncContext(auth), { limit: 1, referenceId, ignoreBackoff: true })
      drain(auth)
    },
    background,
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running])
    },
    databaseHooks,
    init(auth) {
      initialized = auth
      // A counter store that cannot work (secondary storage without increment) fails at start-up, not on the first event.
      if (settings.usageEvents && settings.usageRateLimit) budgetStore(auth)
    },
  }
}
