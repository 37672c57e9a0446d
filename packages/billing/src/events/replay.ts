/**
 * @module
 * Replaying logged events that were not applied: failed ones (a schema this
 * version now accepts, a bug since fixed, a handler that threw), `pending`
 * ones older than a grace period (the process died after the mirror
 * committed and before the handlers finished) and, when asked, ignored ones
 * (a type this version now knows). The stored body is parsed again; it was
 * verified when it arrived, and nothing unverified is ever logged.
 *
 * Each replay claims its row with a conditional update (`where status and
 * attempts = <as read>`, counting the attempt) in the transaction that
 * applies it, so two replays running at once apply an event and run its
 * handlers once; the row stays `pending` until the handlers have run, and
 * only the latest claim finishes it (log.ts `finishEvent`). Applying is
 * versioned like any delivery (mirror/versioned.ts): replaying an old event
 * never overwrites newer state, and replaying one the mirror already has is
 * harmless.
 */
import type { Where } from '@gatehouse/core'
import { hasHandlers, runHandlers } from '../handlers.js'
import { applyEvent } from '../mirror/apply.js'
import { finishEvent, type BillingEventRecord, type EventStatus } from './log.js'
import { describe, parseBody, retryOnConflict, type ReceiveContext } from './receive.js'

export type ReplayableStatus = 'failed' | 'ignored' | 'pending'

export interface ReplayRequest {
  /** Only these log rows (their `id`). Default: every row in `statuses`, oldest first. */
  readonly ids?: readonly string[]
  readonly statuses: readonly ReplayableStatus[]
  /** `pending` rows are taken only when last claimed before this instant (the grace period). */
  readonly pendingBefore: Date
  readonly limit: number
}

export interface ReplayOutcome {
  readonly id: string
  readonly webhookId: string
  readonly type: string | null
  /** What the row says now; `skipped` when another replay claimed it first. */
  readonly status: EventStatus | 'skipped'
  readonly error: string | null
}

/**
 * @example
 * const outcomes = await replayEvents({ db, logger, handlers, now }, { statuses: ['failed', 'pending'], pendingBefore, limit: 100 })
 */
export async function replayEvents(ctx: ReceiveContext, request: ReplayRequest): Promise<ReplayOutcome[]> {
  const settled = request.statuses.filter((status) => status !== 'pending')
  const which: Where[] = []
  if (settled.length > 0) which.push({ field: 'status', operator: 'in', value: settled })
  if (request.statuses.includes('pending')) {
    which.push({ and: [{ field: 'status', value: 'pending' }, { field: 'processedAt', operator: 'lt', value: request.pendingBefore }] })
  }
  const rows = await ctx.db.findMany<BillingEventRecord>({
    model: 'billingEvent',
    where: [{ or: which }, ...(request.ids ? [{ field: 'id', operator: 'in' as const, value: [...request.ids] }] : [])],
    sortBy: { field: 'receivedAt', direction: 'asc' },
    limit: request.limit,
  })
  const outcomes: ReplayOutcome[] = []
  for (const row of rows) outcomes.push(await replayOne(ctx, row))
  return outcomes
}

async function replayOne(ctx: ReceiveContext, row: BillingEventRecord): Promise<ReplayOutcome> {
  // The row as read: a concurrent replay, or the delivery finishing, changes its status or attempts.
  const claim = [
    { field: 'id', value: row.id },
    { field: 'status', value: row.status },
    { field: 'attempts', value: row.attempts },
  ]
  const attempts = row.attempts + 1
  const parsed = await parseBody(row.payload)
  const base = { id: row.id, webhookId: row.webhookId }
  if (!parsed.ok) {
    const status = parsed.reason === 'unknown-type' ? 'ignored' : 'failed'
    const issues = parsed.issues.length > 0 ? parsed.issues : null
    const updated = await ctx.db.update({
      model: 'billingEvent',
      where: claim,
      update: { status, error: parsed.message, issues, attempts, processedAt: ctx.now },
    })
    return { ...base, type: parsed.type, status: updated ? status : 'skipped', error: updated ? parsed.message : null }
  }
  const { event } = parsed
  const handled = hasHandlers(ctx.handlers, event.type)
  let claimed: boolean
  try {
    claimed = await retryOnConflict(() =>
      ctx.db.transaction(async (tx) => {
        const won = await tx.update({
          model: 'billingEvent',
          where: claim,
          update: { status: handled ? 'pending' : 'applied', type: event.type, timestamp: event.timestamp, error: null, issues: null, attempts, processedAt: ctx.now },
        })
        if (!won) return false
        await applyEvent(tx, event)
        return true
      }),
    )
  } catch (error) {
    const message = `Failed to apply event: ${describe(error)}`
    const updated = await ctx.db.update({ model: 'billingEvent', where: claim, update: { status: 'failed', error: message, attempts, processedAt: ctx.now } })
    return { ...base, type: event.type, status: updated ? 'failed' : 'skipped', error: updated ? message : null }
  }
  if (!claimed) return { ...base, type: event.type, status: 'skipped', error: null }
  if (!handled) return { ...base, type: event.type, status: 'applied', error: null }
  const failure = await runHandlers(ctx.handlers, event, { webhookId: row.webhookId, replayed: true, payload: parsed.payload })
  if (failure !== null) ctx.logger.error('billing event handler failed on replay', { webhookId: row.webhookId, type: event.type, error: failure })
  const error = failure === null ? null : `Handler failed: ${failure}`
  await finishEvent(ctx.db, { id: row.id, attempts }, error, ctx.now)
  return { ...base, type: event.type, status: failure === null ? 'applied' : 'failed', error }
}
