/**
 * @module
 * Replaying logged events that were not applied: failed ones (a schema this
 * version now accepts, a bug since fixed, a handler that threw) and, when
 * asked, ignored ones (a type this version now knows). The stored body is
 * parsed again; it was verified when it arrived, and nothing unverified is
 * ever logged. Each replay claims its row with a conditional update (`where
 * status = <as read>`) in the transaction that applies it, so two replays
 * running at once apply an event once. Applying is versioned like any
 * delivery (mirror/versioned.ts): replaying an old event never overwrites
 * newer state, and replaying one the mirror already has is harmless.
 */
import { runHandlers } from '../handlers.js'
import { applyEvent } from '../mirror/apply.js'
import { markFailed, type BillingEventRecord, type EventStatus } from './log.js'
import { describe, parseBody, retryOnConflict, type ReceiveContext } from './receive.js'

export interface ReplayRequest {
  /** Only these log rows (their `id`). Default: every row in `statuses`, oldest first. */
  readonly ids?: readonly string[]
  /** Default `['failed']`. */
  readonly statuses: readonly ('failed' | 'ignored')[]
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
 * const outcomes = await replayEvents({ db, logger, handlers, now: clock.now() }, { statuses: ['failed'], limit: 100 })
 */
export async function replayEvents(ctx: ReceiveContext, request: ReplayRequest): Promise<ReplayOutcome[]> {
  const rows = await ctx.db.findMany<BillingEventRecord>({
    model: 'billingEvent',
    where: [
      { field: 'status', operator: 'in', value: [...request.statuses] },
      ...(request.ids ? [{ field: 'id', operator: 'in' as const, value: [...request.ids] }] : []),
    ],
    sortBy: { field: 'receivedAt', direction: 'asc' },
    limit: request.limit,
  })
  const outcomes: ReplayOutcome[] = []
  for (const row of rows) outcomes.push(await replayOne(ctx, row))
  return outcomes
}

async function replayOne(ctx: ReceiveContext, row: BillingEventRecord): Promise<ReplayOutcome> {
  const claim = [
    { field: 'id', value: row.id },
    { field: 'status', value: row.status },
  ]
  const attempts = row.attempts + 1
  const parsed = parseBody(row.payload)
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
  let claimed: boolean
  try {
    claimed = await retryOnConflict(() =>
      ctx.db.transaction(async (tx) => {
        const won = await tx.update({
          model: 'billingEvent',
          where: claim,
          update: { status: 'applied', type: event.type, timestamp: event.timestamp, error: null, issues: null, attempts, processedAt: ctx.now },
        })
        if (!won) return false
        await applyEvent(tx, event)
        return true
      }),
    )
  } catch (error) {
    const message = `Failed to apply event: ${describe(error)}`
    await ctx.db.update({ model: 'billingEvent', where: claim, update: { error: message, attempts, processedAt: ctx.now } })
    return { ...base, type: event.type, status: 'failed', error: message }
  }
  if (!claimed) return { ...base, type: event.type, status: 'skipped', error: null }
  const failure = await runHandlers(ctx.handlers, event, { webhookId: row.webhookId, replayed: true, payload: parsed.payload })
  if (failure === null) return { ...base, type: event.type, status: 'applied', error: null }
  const message = `Handler failed: ${failure}`
  ctx.logger.error('billing event handler failed on replay', { webhookId: row.webhookId, type: event.type, error: failure })
  await markFailed(ctx.db, row.id, message, ctx.now)
  return { ...base, type: event.type, status: 'failed', error: message }
}
