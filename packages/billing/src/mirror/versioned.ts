/**
 * @module
 * The one write the mirror makes: "store this state of entity X unless what
 * is stored is newer". An entity's version is its modified_at, or its
 * created_at while it has never been modified (a never-modified entity is as
 * it was created; the event's own timestamp, later than created_at, would
 * rank that creation state above a modification made in between). A
 * customer state replacement is versioned by its event's timestamp
 * (customer-state.ts). Versions are microseconds since the epoch, as the
 * platform sent them (schemas/instants.ts `microsecondsOf`): a `Date` keeps only
 * milliseconds, and two changes within one millisecond must still be ordered.
 *
 * Race-free without reading first: a conditional UPDATE (`where id = X and
 * version <= new`) is atomic on every backend (the row lock makes a
 * concurrent writer re-check the condition on PostgreSQL and MySQL; SQLite
 * and the memory adapter run transactions one at a time). When it matches
 * nothing, the row is either newer (stale delivery: skip) or missing
 * (insert). Two transactions inserting the same id meet at the primary key:
 * the loser's unique violation aborts its transaction, and the receiver
 * runs it again, when the update path finds the winner's row.
 */
import type { Row, Store } from '@gatehouse/core'
import { microsecondsOf } from '../schemas/instants.js'

export type UpsertOutcome = 'created' | 'updated' | 'stale'

/**
 * @example
 * entityVersion({ createdAt: new Date('2026-01-01'), modifiedAt: null }) // 1767225600000000
 */
export function entityVersion(entity: { readonly createdAt: Date; readonly modifiedAt: Date | null }): number {
  return microsecondsOf(entity.modifiedAt ?? entity.createdAt)
}

/**
 * The later of a version and a date: a deletion moves a customer's version even if modified_at stayed put.
 *
 * @example
 * latest(entityVersion(customer), customer.deletedAt)
 */
export function latest(version: number, date: Date | null | undefined): number {
  return date ? Math.max(version, microsecondsOf(date)) : version
}

/**
 * Writes `fields` to row `id` of `model` at `version`, unless the stored row is newer.
 *
 * @example
 * await upsertVersioned(tx, 'billingSubscription', subscription.id, entityVersion(subscription), fields)
 */
export async function upsertVersioned(tx: Store, model: string, id: string, version: number, fields: Row): Promise<UpsertOutcome> {
  const data = { ...fields, version }
  // updateMany: one plain UPDATE on every backend, answering how many rows matched (none or the one).
  const updated = await tx.updateMany({
    model,
    where: [
      { field: 'id', value: id },
      { field: 'version', operator: 'lte', value: version },
    ],
    update: data,
  })
  if (updated > 0) return 'updated'
  const stored = await tx.findOne({ model, where: { field: 'id', value: id } })
  if (stored) return 'stale'
  await tx.create({ model, data: { ...data, id } })
  return 'created'
}
