/**
 * @module
 * `customer.state_changed` replaces what the mirror says the customer has
 * right now. The state is a snapshot taken at the event's timestamp T, so it
 * is newer information than anything stored at a version ≤ T:
 *
 * - each subscription, grant and meter it lists is written, as active or
 *   granted, at version T, unless the stored row is newer than T;
 * - each one of the customer's rows it does not list, stored at a version
 *   older than T, leaves the active set (active = false, is_granted = false)
 *   and moves to version T, so an older delivery cannot bring it back.
 *
 * The customer row records the newest state applied (`stateVersion`); a
 * state older than that is skipped whole — it could otherwise add back an
 * item the newer state left out and the mirror never had a row for. The
 * claim is a conditional UPDATE of the customer row, so two states of one
 * customer applied at once are ordered by its row lock. A later event about
 * one subscription (version > T) still applies on top, and a row first
 * created by an event older than the newest state starts outside the set
 * (`settleAgainstState`). Each "leave the set" is one conditional UPDATE.
 */
import type { Store, Where } from '@gatehouse/core'
import type { z } from 'zod'
import { microsecondsOf } from '../schemas/instants.js'
import type { customerStateSchema } from '../schemas/customer.js'
import { stateGrantRow, stateMeterRow, stateSubscriptionRow } from './rows.js'
import { upsertVersioned } from './versioned.js'

type CustomerState = z.output<typeof customerStateSchema>

/**
 * @example
 * await replaceCustomerState(tx, event.data, event.timestamp)
 */
export async function replaceCustomerState(tx: Store, state: CustomerState, timestamp: Date): Promise<void> {
  const customerId = state.id
  const at = microsecondsOf(timestamp)
  const claimed = await tx.update({
    model: 'billingCustomer',
    where: [
      { field: 'id', value: customerId },
      { or: [{ field: 'stateVersion', value: null }, { field: 'stateVersion', operator: 'lte', value: at }] },
    ],
    update: { stateVersion: at },
  })
  if (!claimed) return
  for (const subscription of state.activeSubscriptions) {
    await upsertVersioned(tx, 'billingSubscription', subscription.id, at, stateSubscriptionRow(subscription, customerId))
  }
  await leaveSet(tx, 'billingSubscription', 'active', customerId, state.activeSubscriptions, at)

  for (const grant of state.grantedBenefits) {
    await upsertVersioned(tx, 'billingBenefitGrant', grant.id, at, stateGrantRow(grant, customerId))
  }
  await leaveSet(tx, 'billingBenefitGrant', 'isGranted', customerId, state.grantedBenefits, at)

  for (const meter of state.activeMeters) {
    await upsertVersioned(tx, 'billingCustomerMeter', meter.id, at, stateMeterRow(meter, customerId))
  }
  await leaveSet(tx, 'billingCustomerMeter', 'active', customerId, state.activeMeters, at)
}

/** Rows of the customer in the set, older than `at` and not `listed`: out of the set, at version `at`. */
async function leaveSet(
  tx: Store,
  model: string,
  flag: 'active' | 'isGranted',
  customerId: string,
  listed: readonly { readonly id: string }[],
  at: number,
): Promise<void> {
  const where: Where[] = [
    { field: 'customerId', value: customerId },
    { field: flag, value: true },
    { field: 'version', operator: 'lt', value: at },
    ...listed.map(({ id }): Where => ({ field: 'id', operator: 'ne', value: id })),
  ]
  await tx.updateMany({ model, where, update: { [flag]: false, version: at } })
}

/**
 * A subscription or grant row just created by an event at `version`, older
 * than the newest state applied to its customer: that state did not list it
 * (it would exist otherwise), so it starts outside the set, at the state's version.
 *
 * @example
 * if (outcome === 'created') await settleAgainstState(tx, 'billingSubscription', 'active', subscription.id, subscription.customerId, version)
 */
export async function settleAgainstState(
  tx: Store,
  model: 'billingSubscription' | 'billingBenefitGrant',
  flag: 'active' | 'isGranted',
  id: string,
  customerId: string,
  version: number,
): Promise<void> {
  // The customer's row is locked by this transaction already (apply.ts writes and locks it first), so a state
  // of this customer is either committed before this read or waits for this transaction to commit.
  const customer = await tx.findOne<{ stateVersion: number | null }>({ model: 'billingCustomer', where: { field: 'id', value: customerId } })
  const stateVersion = customer?.stateVersion
  if (stateVersion === null || stateVersion === undefined || stateVersion <= version) return
  await tx.update({ model, where: { field: 'id', value: id }, update: { [flag]: false, version: stateVersion } })
}
