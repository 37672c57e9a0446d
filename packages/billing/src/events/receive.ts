/**
 * @module
 * What happens to a verified delivery. The event is parsed; one that can be
 * applied is logged and applied to the mirror in one transaction, so the
 * webhook-id is recorded together with the state change it caused and a
 * redelivery — even twenty at once — meets the unique index and changes
 * nothing. The handlers run once that transaction has committed.
 *
 * The row is written `pending` and turned `applied` once the handlers have
 * run (log.ts), so a process that dies in between leaves a row a replay
 * finds; an event no handler wants is written `applied` at once.
 *
 * Nothing is lost: an unknown type is logged as ignored and a payload that
 * fails its schema, or fails to apply, as failed, each with its raw body,
 * and answered 202 so the platform stops retrying (it disables endpoints
 * that keep failing); `api.replayBillingEvents` applies them after an
 * upgrade. A failure that says nothing about the event — a deadlock that
 * persists, a lock wait timeout, a dropped connection — logs nothing and is
 * answered `retry` (503): the platform delivers the event again, and the
 * copy that counts is one the database could take. Deadlocks and
 * serialization failures are first run again here, a few times.
 */
import { DatabaseError, isUniqueViolation, type Logger, type Store } from '@gatehouse/core'
import { hasHandlers, runHandlers, type BillingEventHandlers } from '../handlers.js'
import { applyEvent } from '../mirror/apply.js'
import type { BillingEvent, EventProblem } from '../schemas/events.js'
import { eventRow, finishEvent, type BillingEventRecord, type EventStatus, type NewEvent } from './log.js'

/** `retry`: nothing was logged, the platform must deliver the event again (answered 503). */
export type DeliveryStatus = 'applied' | 'duplicate' | 'ignored' | 'failed' | 'retry'

export interface DeliveryResult {
  readonly status: DeliveryStatus
  /**
   * Why an event was ignored or failed, as the platform may be told: the
   * parse messages of docs/billing.md#events, or a bare "Failed to apply event" / "Handler
   * failed". The error's own text (a driver message, a handler's) stays in
   * the log row and the server log.
   */
  readonly message?: string
}

export interface ReceiveContext {
  readonly db: Store
  readonly logger: Logger
  readonly handlers: BillingEventHandlers
  readonly now: Date
}

/** Another delivery of this webhook-id got there first. */
class DuplicateDelivery extends Error {}

/**
 * Concurrent first writes of one entity (the loser's transaction is run
 * again, mirror/versioned.ts), and deadlocks or serialization failures the
 * database rolled back: at most this many runs.
 */
const MAX_ATTEMPTS = 5

/**
 * @example
 * const result = await receiveDelivery({ db, logger, handlers, now: clock.now() }, { webhookId, body })
 */
export async function receiveDelivery(ctx: ReceiveContext, delivery: { readonly webhookId: string; readonly body: string }): Promise<DeliveryResult> {
  const parsed = await parseBody(delivery.body)
  const base = { webhookId: delivery.webhookId, body: delivery.body, now: ctx.now }
  if (!parsed.ok) {
    const status = parsed.reason === 'unknown-type' ? 'ignored' : 'failed'
    const recorded = await recordOnly(ctx.db, { ...base, type: parsed.type, timestamp: parsed.timestamp }, status, parsed)
    if (recorded === 'duplicate') return { status: 'duplicate' }
    ctx.logger.warn(`billing event ${status}`, { webhookId: delivery.webhookId, type: parsed.type, reason: parsed.message })
    return { status, message: parsed.message }
  }
  const { event } = parsed
  const record: NewEvent = { ...base, type: event.type, timestamp: event.timestamp }
  const handled = hasHandlers(ctx.handlers, event.type)
  let applied: BillingEventRecord
  try {
    const outcome = await applyOnce(ctx.db, record, event, handled ? 'pending' : 'applied')
    if (outcome === 'duplicate') return { status: 'duplicate' }
    applied = outcome
  } catch (error) {
    if (isTemporary(error)) {
      ctx.logger.warn('billing event not applied, to be delivered again', { webhookId: delivery.webhookId, type: event.type, error: describe(error) })
      return { status: 'retry' }
    }
    const message = `Failed to apply event: ${describe(error)}`
    ctx.logger.error('billing event failed to apply', { webhookId: delivery.webhookId, type: event.type, error: describe(error) })
    const recorded = await recordOnly(ctx.db, record, 'failed', { message, issues: [] })
    return recorded === 'duplicate' ? { status: 'duplicate' } : { status: 'failed', message: 'Failed to apply event' }
  }
  if (!handled) return { status: 'applied' }
  const failure = await runHandlers(ctx.handlers, event, { webhookId: delivery.webhookId, replayed: false, payload: parsed.payload })
  if (failure !== null) ctx.logger.error('billing event handler failed', { webhookId: delivery.webhookId, type: event.type, error: failure })
  await finishEvent(ctx.db, applied, failure === null ? null : `Handler failed: ${failure}`, ctx.now)
  return failure === null ? { status: 'applied' } : { status: 'failed', message: 'Handler failed' }
}

/**
 * Logs (as `status`) and applies `event` in one transaction, running it
 * again when it lost a race to create an entity row or the database rolled
 * it back. 'duplicate' when the webhook-id is already logged.
 *
 * @example
 * const outcome = await applyOnce(db, record, event, 'pending')
 */
export async function applyOnce(db: Store, record: NewEvent, event: BillingEvent, status: EventStatus): Promise<BillingEventRecord | 'duplicate'> {
  try {
    return await retryOnConflict(() =>
      db.transaction(async (tx) => {
        let logged: BillingEventRecord
        try {
          logged = await tx.create<BillingEventRecord>({ model: 'billingEvent', data: eventRow(record, status, null) })
        } catch (error) {
          if (isUniqueViolation(error)) throw new DuplicateDelivery()
          throw error
        }
        await applyEvent(tx, event)
        return logged
      }),
    )
  } catch (error) {
    if (error instanceof DuplicateDelivery) return 'duplicate'
    throw error
  }
}

/**
 * Runs `transaction` again when it lost a race to create an entity row (its
 * unique violation rolled it back; the next run takes the update path), or
 * when the database rolled it back to break a deadlock or keep it
 * serializable. At most `MAX_ATTEMPTS` runs; then the last error is thrown.
 *
 * @example
 * await retryOnConflict(() => db.transaction((tx) => applyEvent(tx, event)))
 */
export async function retryOnConflict<R>(transaction: () => Promise<R>): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction()
    } catch (error) {
      const rolledBack = isUniqueViolation(error) || (error instanceof DatabaseError && error.code === 'DEADLOCK')
      if (!rolledBack || attempt >= MAX_ATTEMPTS) throw error
    }
  }
}

/**
 * A failure that says nothing about the event: the same delivery may apply
 * later (a deadlock that outlasted the retries, a lock wait timeout, a
 * dropped connection). Anything else — a bug, a refusing database hook — would
 * fail the same way again.
 *
 * @example
 * isTemporary(new DatabaseError('TRANSIENT', 'Database temporarily unavailable')) // true
 */
export function isTemporary(error: unknown): boolean {
  return error instanceof DatabaseError && (error.code === 'DEADLOCK' || error.code === 'TRANSIENT')
}

async function recordOnly(
  db: Store,
  record: NewEvent,
  status: 'ignored' | 'failed',
  problem: Pick<EventProblem, 'message' | 'issues'>,
): Promise<'recorded' | 'duplicate'> {
  try {
    await db.create({ model: 'billingEvent', data: eventRow(record, status, problem) })
    return 'recorded'
  } catch (error) {
    if (isUniqueViolation(error)) return 'duplicate'
    throw error
  }
}

type ParsedBody =
  | { readonly ok: true; readonly event: BillingEvent; readonly payload: unknown }
  | ({ readonly ok: false; readonly timestamp: Date | null } & EventProblem)

/**
 * The event schemas (some 800 zod schemas: every entity the platform sends)
 * load with the first delivery or replay, not with the plugin: a server that
 * never receives a webhook never builds them (docs/billing.md#events).
 */
let schemas: Promise<typeof import('../schemas/events.js')> | undefined
function eventSchemas(): Promise<typeof import('../schemas/events.js')> {
  // A failed load (a broken install) is not remembered: the next delivery tries again.
  schemas ??= import('../schemas/events.js').catch((error: unknown) => {
    schemas = undefined
    throw error
  })
  return schemas
}

/**
 * JSON, then the event schemas. A signed body that is not JSON fails like a schema failure.
 *
 * @example
 * const parsed = await parseBody(row.payload)
 * if (!parsed.ok) parsed.message // 'Failed to parse event'
 */
export async function parseBody(body: string): Promise<ParsedBody> {
  let payload: unknown
  try {
    payload = JSON.parse(body)
  } catch (error) {
    return { ok: false, reason: 'invalid', message: 'Failed to parse event', type: null, timestamp: null, issues: [{ path: '', message: describe(error) }] }
  }
  const { safeParseEvent } = await eventSchemas()
  const parsed = safeParseEvent(payload)
  if (parsed.ok) return { ok: true, event: parsed.event, payload }
  return { ...parsed, timestamp: timestampOf(payload) }
}

function timestampOf(payload: unknown): Date | null {
  if (typeof payload !== 'object' || payload === null || !('timestamp' in payload) || typeof payload.timestamp !== 'string') return null
  const date = new Date(payload.timestamp)
  return Number.isNaN(date.getTime()) ? null : date
}

/**
 * An error as logged and recorded: name and message, never a stack.
 *
 * @example
 * describe(new TypeError('boom')) // 'TypeError: boom'
 */
export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
