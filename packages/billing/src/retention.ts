/**
 * @module
 * How long the event log keeps settled events (docs/billing.md#event-log-retention).
 * Without `eventLog.retentionDays` nothing is deleted. With it,
 * `auth.api.cleanup()` (docs/core.md#cleanup) deletes `applied` and `ignored`
 * events received longer ago than that. `pending` and `failed` events stay
 * whatever their age: they are what `replayBillingEvents` works from.
 *
 * The log's unique `webhookId` is also what makes a redelivery a no-op, so a
 * deleted event delivered again would be applied again: the retention must
 * outlast the platform's redelivery window, hence the floor of 7 days.
 */
import type { CleanupTarget, GatehousePlugin } from '@gatehouse/core'

export interface EventLogOptions {
  /** Days to keep `applied` and `ignored` events; at least 7. Default: kept forever. */
  readonly retentionDays?: number | undefined
}

export const MIN_RETENTION_DAYS = 7
const DAY_MS = 86_400_000

/** Settled events: nothing left to replay. */
const SETTLED = ['applied', 'ignored']

/**
 * The plugin's `cleanup` for the event log, or undefined without a retention.
 * Throws at start-up for a retention below the floor.
 *
 * @example
 * eventLogCleanup({ retentionDays: 90 })?.(ctx, new Date()) // [{ model: 'billingEvent', field: 'receivedAt', ... }]
 */
export function eventLogCleanup(options: EventLogOptions | undefined): GatehousePlugin['cleanup'] {
  const days = options?.retentionDays
  if (days === undefined) return undefined
  if (!(Number.isFinite(days) && days >= MIN_RETENTION_DAYS)) {
    throw new Error(`billing: eventLog.retentionDays must be at least ${MIN_RETENTION_DAYS} (webhook redeliveries rely on the log)`)
  }
  return (_ctx, now): CleanupTarget[] => [
    {
      model: 'billingEvent',
      field: 'receivedAt',
      before: new Date(now.getTime() - days * DAY_MS),
      where: { field: 'status', operator: 'in', value: SETTLED },
    },
  ]
}
