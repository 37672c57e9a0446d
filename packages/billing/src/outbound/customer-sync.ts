/**
 * @module
 * Keeping the platform's customers in step with users
 * (docs/billing.md#customers). A change that must reach the platform — a
 * sign-up, an email or name change, a deletion — is first written down as
 * a `billingCustomerSync` row (`pending`), then pushed. A push that fails
 * leaves the row pending with `attempts`, `lastError` and a `nextAttemptAt`
 * backing off from 30 s to an hour; it is pushed again by the next outbound
 * call about that user, by any sign-up or outbound call (a few due rows at
 * a time), and by `api.syncBillingCustomers` (for a cron). So a platform
 * outage never fails a sign-up, and the row shows what is owed.
 *
 * Exactly one customer per user: the push is claimed first (a conditional
 * update on the row's `revision`, so of twenty workers one calls the
 * platform), and the create itself is idempotent: the platform keeps
 * external ids unique, and a create that meets an existing one updates it
 * instead. A claim holds for a minute (`claimedUntil`, `LEASE_MS`): a
 * process that dies mid-push leaves a row another one takes later.
 */
import { isUniqueViolation, type Logger, type Row, type Store } from '@gatehouse/core'
import type { Platform } from './platform.js'

export type SyncAction = 'upsert' | 'delete'

export interface CustomerSyncRecord {
  [field: string]: unknown
  id: string
  referenceId: string
  action: SyncAction
  status: 'pending' | 'synced'
  revision: number
  attempts: number
  nextAttemptAt: Date
  claimedUntil: Date | null
  lastError: string | null
  email: string | null
  name: string | null
}

export interface SyncContext {
  readonly db: Store
  readonly platform: Platform
  readonly logger: Logger
  readonly now: Date
}

export const LEASE_MS = 60_000
const FIRST_RETRY_MS = 30_000
const LAST_RETRY_MS = 3_600_000

/** The wait after `attempts` failed pushes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LAST_RETRY_MS)
}

const byReference = (referenceId: string) => ({ field: 'referenceId', value: referenceId })

/**
 * Records that `referenceId`'s customer must be brought in line (created or
 * updated from the user row, or deleted), due now.
 *
 * @example
 * await markCustomerDirty(db, user.id, 'upsert', clock.now())
 */
export async function markCustomerDirty(db: Store, referenceId: string, action: SyncAction, now: Date): Promise<void> {
  for (let round = 0; round < 5; round += 1) {
    const row = await db.findOne<CustomerSyncRecord>({ model: 'billingCustomerSync', where: byReference(referenceId) })
    if (!row) {
      try {
        const data = { referenceId, action, status: 'pending', revision: 0, attempts: 0, nextAttemptAt: now, claimedUntil: null, lastError: null, email: null, name: null }
        await db.create({ model: 'billingCustomerSync', data })
        return
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        continue
      }
    }
    const updated = await db.update({
      model: 'billingCustomerSync',
      where: [byReference(referenceId), { field: 'revision', value: row.revision }],
      update: { action, status: 'pending', revision: row.revision + 1, attempts: 0, nextAttemptAt: now, claimedUntil: null },
    })
    if (updated) return
  }
  throw new Error('billing: could not record a customer sync after five rounds')
}

/** What one push did: `skipped` when another worker held or took the row. */
export interface SyncOutcome {
  readonly referenceId: string
  readonly action: SyncAction
  readonly status: 'synced' | 'pending' | 'skipped'
  readonly error: string | null
}

async function push(ctx: SyncContext, row: CustomerSyncRecord): Promise<{ email: string | null; name: string | null }> {
  if (row.action === 'delete') {
    await ctx.platform.deleteCustomer(row.referenceId)
    return { email: null, name: null }
  }
  const user = await ctx.db.findOne<Row>({ model: 'user', where: { field: 'id', value: row.referenceId } })
  // The user is gone: its delete hook owns the customer now.
  if (!user || typeof user.email !== 'string') return { email: null, name: null }
  const fields = { email: user.email, name: typeof user.name === 'string' && user.name !== '' ? user.name : null }
  // Pushed before: an update is one call. Never pushed: a create, which meets an existing customer
  // (an earlier push whose answer was lost, a checkout that made it) as a conflict and updates it.
  if (row.email !== null) {
    const updated = await ctx.platform.updateCustomer(row.referenceId, fields)
    if (updated.ok) return fields
    if (updated.kind === 'conflict') throw new Error(`the platform refused the update: ${updated.fields.join(', ')} already taken`)
  }
  const created = await ctx.platform.createCustomer({ externalId: row.referenceId, ...fields })
  if (created.ok) return fields
  const taken = created.kind === 'conflict' ? created.fields : []
  if (!taken.includes('external_id')) throw new Error(`the platform refused the customer: ${taken.join(', ')} already taken`)
  const updated = await ctx.platform.updateCustomer(row.referenceId, fields)
  if (!updated.ok) throw new Error(updated.kind === 'conflict' ? `the platform refused the update: ${updated.fields.join(', ')} already taken` : 'the customer disappeared during the update')
  return fields
}

/**
 * Claims the row and pushes it; the outcome is written back only if nobody
 * changed the row meanwhile (a newer change stays pending).
 *
 * @example
 * const outcome = await runCustomerSync({ db, platform, logger, now }, row)
 */
export async function runCustomerSync(ctx: SyncContext, row: CustomerSyncRecord): Promise<SyncOutcome> {
  const base = { referenceId: row.referenceId, action: row.action }
  const claimed = row.revision + 1
  const claim = await ctx.db.update({
    model: 'billingCustomerSync',
    where: [{ field: 'id', value: row.id }, { field: 'revision', value: row.revision }, { field: 'status', value: 'pending' }],
    update: { revision: claimed, claimedUntil: new Date(ctx.now.getTime() + LEASE_MS) },
  })
  if (!claim) return { ...base, status: 'skipped', error: null }
  const mine = [{ field: 'id', value: row.id }, { field: 'revision', value: claimed }]
  try {
    const pushed = await push(ctx, row)
    await ctx.db.update({ model: 'billingCustomerSync', where: mine, update: { status: 'synced', revision: claimed + 1, claimedUntil: null, lastError: null, ...pushed } })
    return { ...base, status: 'synced', error: null }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const attempts = row.attempts + 1
    ctx.logger.warn('billing customer sync failed; it will be retried', { referenceId: row.referenceId, action: row.action, attempts, error: message })
    await ctx.db.update({
      model: 'billingCustomerSync',
      where: mine,
      update: { revision: claimed + 1, claimedUntil: null, attempts, lastError: message, nextAttemptAt: new Date(ctx.now.getTime() + retryDelayMs(attempts)) },
    })
    return { ...base, status: 'pending', error: message }
  }
}

/**
 * Pushes due rows, oldest due first: all of them, or only `referenceId`'s.
 *
 * @example
 * const outcomes = await syncDueCustomers({ db, platform, logger, now }, { limit: 10 })
 */
export async function syncDueCustomers(ctx: SyncContext, request: { readonly limit: number; readonly referenceId?: string; readonly ignoreBackoff?: boolean }): Promise<SyncOutcome[]> {
  const rows = await ctx.db.findMany<CustomerSyncRecord>({
    model: 'billingCustomerSync',
    where: [
      { field: 'status', value: 'pending' },
      // Not claimed by a live worker: its claim bumped the revision, so only a reader after it could take the row again.
      { or: [{ field: 'claimedUntil', value: null }, { field: 'claimedUntil', operator: 'lte' as const, value: ctx.now }] },
      ...(request.ignoreBackoff ? [] : [{ field: 'nextAttemptAt', operator: 'lte' as const, value: ctx.now }]),
      ...(request.referenceId === undefined ? [] : [byReference(request.referenceId)]),
    ],
    sortBy: { field: 'nextAttemptAt', direction: 'asc' },
    limit: request.limit,
  })
  const outcomes: SyncOutcome[] = []
  for (const row of rows) outcomes.push(await runCustomerSync(ctx, row))
  return outcomes
}
