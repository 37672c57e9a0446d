/**
 * @module
 * Removes rows that have expired (docs/core.md#cleanup): sessions and
 * verification values (email, reset and OAuth state records) past
 * `expiresAt`, rate-limit counters whose window ended under every rule, and
 * whatever the plugins list. Deletes go straight to the adapter, without
 * database hooks: an expired row is garbage, not a user's action. Each batch
 * is one short statement, and the loop yields between batches, so a large
 * backlog never holds a lock or the event loop for long.
 */
import type { Adapter } from '../db/adapter.js'
import type { AuthContext } from '../endpoint/context.js'
import { longestWindow } from '../rate-limit/rules.js'
import type { CleanupOptions, CleanupResult, CleanupTarget } from '../types/cleanup.js'

export const DEFAULT_CLEANUP_BATCH_SIZE = 500

/** Core's own expiring rows, for the models present in the schema. */
export function coreCleanupTargets(ctx: Pick<AuthContext, 'options' | 'plugins' | 'schema'>, now: Date): CleanupTarget[] {
  const targets: CleanupTarget[] = []
  if (ctx.schema.session) targets.push({ model: 'session', field: 'expiresAt', before: now })
  if (ctx.schema.verification) targets.push({ model: 'verification', field: 'expiresAt', before: now })
  if (ctx.schema.rateLimit) {
    const window = longestWindow(ctx.options.rateLimit ?? {}, ctx.plugins.flatMap((plugin) => plugin.rateLimit ?? []))
    targets.push({ model: 'rateLimit', field: 'lastRequest', before: now.getTime() - window * 1000 })
  }
  return targets
}

/**
 * Deletes every expired row of core and the plugins; returns the counts per model.
 *
 * @example
 * const { deleted } = await runCleanup(await auth.$context)
 * // { session: 120, verification: 4, rateLimit: 310 }
 */
export async function runCleanup(ctx: AuthContext, options: CleanupOptions = {}): Promise<CleanupResult> {
  const batchSize = options.batchSize ?? DEFAULT_CLEANUP_BATCH_SIZE
  if (!(Number.isInteger(batchSize) && batchSize >= 1)) throw new RangeError('cleanup: batchSize must be a positive integer')
  const now = ctx.clock.now()
  const targets = [...coreCleanupTargets(ctx, now)]
  for (const plugin of ctx.plugins) {
    if (plugin.cleanup) targets.push(...(await plugin.cleanup(ctx, now)))
  }
  const deleted: Record<string, number> = {}
  for (const target of targets) {
    if (!ctx.schema[target.model]) throw new Error(`cleanup: unknown model "${target.model}"`)
    deleted[target.model] = (deleted[target.model] ?? 0) + (await deleteInBatches(ctx.adapter, target, batchSize))
  }
  return { deleted }
}

async function deleteInBatches(adapter: Adapter, target: CleanupTarget, batchSize: number): Promise<number> {
  const expired = [
    { field: target.field, operator: 'lt' as const, value: target.before },
    ...(target.where === undefined ? [] : [target.where].flat()),
  ]
  let total = 0
  for (;;) {
    const batch = await adapter.findMany({ model: target.model, where: expired, limit: batchSize })
    if (batch.length === 0) return total
    const ids = batch.map((row) => String(row.id))
    // The expiry condition is repeated: a row refreshed since it was read (a session extended) stays.
    const removed = await adapter.deleteMany({ model: target.model, where: [{ field: 'id', operator: 'in', value: ids }, ...expired] })
    total += removed
    if (batch.length < batchSize || removed === 0) return total
    // Lets requests waiting on the event loop (and on the database) in between batches.
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}
