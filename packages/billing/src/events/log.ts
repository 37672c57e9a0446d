/**
 * @module
 * The event log: one row per delivered event, keyed by its webhook-id,
 * holding the raw body and what became of it — `applied` (the mirror has
 * it and the handlers ran), `ignored` (a type this version does not know) or
 * `failed` (the payload did not parse, applying it failed, or a handler
 * threw; `error` says which). Ignored and failed events keep their payload
 * and can be replayed (replay.ts). A redelivery finds the row and is a
 * duplicate; it is not logged again.
 */
import type { Row, Store } from '@gatehouse/core'
import type { EventProblem } from '../schemas/events.js'

export type EventStatus = 'applied' | 'ignored' | 'failed'

/** A row of the event log, as `api.replayBillingEvents` and tests see it. */
export interface BillingEventRecord {
  [field: string]: unknown
  id: string
  webhookId: string
  type: string | null
  status: EventStatus
  error: string | null
  issues: EventProblem['issues'] | null
  /** The body exactly as received. */
  payload: string
  timestamp: Date | null
  receivedAt: Date
  processedAt: Date | null
  attempts: number
}

export interface NewEvent {
  readonly webhookId: string
  readonly body: string
  readonly type: string | null
  readonly timestamp: Date | null
  readonly now: Date
}

/**
 * The log row for an event, written in the transaction that applies it (or
 * alone, for one that cannot be applied).
 *
 * @example
 * await tx.create({ model: 'billingEvent', data: eventRow(event, 'applied', null) })
 */
export function eventRow(event: NewEvent, status: EventStatus, problem: Pick<EventProblem, 'message' | 'issues'> | null): Row {
  return {
    webhookId: event.webhookId,
    type: event.type,
    status,
    error: problem?.message ?? null,
    issues: problem && problem.issues.length > 0 ? problem.issues : null,
    payload: event.body,
    timestamp: event.timestamp,
    receivedAt: event.now,
    processedAt: event.now,
    attempts: 1,
  }
}

/**
 * Records that the handlers of an applied event failed: the mirror keeps the
 * event, the row says to replay it.
 *
 * @example
 * await markFailed(db, record.id, 'Handler failed: TypeError: ...', clock.now())
 */
export async function markFailed(db: Store, id: string, message: string, now: Date): Promise<void> {
  await db.update({ model: 'billingEvent', where: { field: 'id', value: id }, update: { status: 'failed', error: message, processedAt: now } })
}
