/**
 * @module
 * The event log: one row per delivered event, keyed by its webhook-id,
 * holding the raw body and what became of it — `pending` (the mirror has it,
 * its handlers have not finished yet), `applied` (the mirror has it and the
 * handlers ran), `ignored` (a type this version does not know) or `failed`
 * (the payload did not parse, applying it failed, or a handler threw;
 * `error` says which). Every row keeps its payload, and failed, ignored and
 * long-pending ones can be replayed (replay.ts). A redelivery finds the row
 * and is a duplicate; it is not logged again.
 *
 * `attempts` counts deliveries and replays that claimed the row; whoever
 * claimed it last, and only they, finishes it (`finishEvent`).
 */
import type { Row, Store } from '@gatehouse/core'
import type { EventProblem } from '../schemas/events.js'

export type EventStatus = 'pending' | 'applied' | 'ignored' | 'failed'

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
  /** When the row was last written by a delivery or replay: for a `pending` row, when it was claimed. */
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
 * await tx.create({ model: 'billingEvent', data: eventRow(event, 'pending', null) })
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
 * Records what became of a `pending` event's handlers: `applied`, or `failed`
 * with the handler's error (the mirror keeps the event; the row says to
 * replay it). Only the claim that ran the handlers finishes the row: the
 * update matches its `attempts`, so a replay that claimed the row since wins.
 * One UPDATE by primary key.
 *
 * @example
 * await finishEvent(db, { id: record.id, attempts: 1 }, 'Handler failed: TypeError: ...', clock.now())
 */
export async function finishEvent(db: Store, claim: { readonly id: string; readonly attempts: number }, failure: string | null, now: Date): Promise<void> {
  await db.updateMany({
    model: 'billingEvent',
    where: [
      { field: 'id', value: claim.id },
      { field: 'attempts', value: claim.attempts },
    ],
    update: failure === null ? { status: 'applied', processedAt: now } : { status: 'failed', error: failure, processedAt: now },
  })
}
